import type { FormEvent } from 'react';
import type { Caseplan } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { dates } from '../i18n/useDates';
import { CustomFieldInput } from './CustomFieldInput';
import { fieldOfError, inputKind, readFieldValue, type PropertySchema } from './customFields';
import { useSaving } from './feedback';
import { orderedProperties } from './fieldOrder';

/**
 * The case plan's custom fields as a form generated from the organization's `caseplan-fields` JSON Schema (the
 * builder's types: text, long text, number, yes/no, date, choice; anything else is shown read-only). The server
 * validates the result against the same schema; a refusal is shown beside the field it is about and above the
 * save button. Read-only (a list of values) for viewers who may not edit the plan, and on a closed plan.
 */
export function CustomFieldsForm({
  plan,
  schema,
  onSaved,
}: {
  plan: Caseplan;
  schema: Record<string, unknown>;
  onSaved: () => void;
}) {
  const properties = orderedProperties(schema);
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const saving = useSaving();
  if (properties.length === 0) {
    return (
      <p className="muted cf-empty">
        {plan.policies.edit ? t('domain.fields.noneOnPlanAdmin') : t('domain.caseplan.noCustom')}
      </p>
    );
  }
  if (!plan.policies.edit || plan.closed) return <CustomFieldValues plan={plan} properties={properties} />;
  const names = properties.map(([name]) => name);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const custom: Record<string, unknown> = {};
    for (const [name, prop] of properties) {
      if (inputKind(prop) !== 'other') custom[name] = readFieldValue(form, name, prop);
    }
    const ok = await saving.run(
      () => callFunction('caseplans-updateCustom', { caseplanId: plan.id, custom }),
      {
        success: t('domain.fields.valuesSaved'),
      },
    );
    if (ok) onSaved();
  };
  // The server's refusal, beside the field it names (and in full above the button).
  const errorFor = saving.error ? fieldOfError(saving.error, names) : null;
  return (
    <form
      className="cf-form"
      aria-label={t('domain.caseplan.custom')}
      aria-busy={saving.busy}
      onSubmit={(e) => void submit(e)}
    >
      {required.size > 0 ? <p className="cf-legend muted">{t('domain.edit.requiredLegend')}</p> : null}
      <div className="cf-grid">
        {properties.map(([name, prop]) => (
          <CustomFieldInput
            key={name}
            name={name}
            prop={prop}
            value={plan.custom[name]}
            required={required.has(name)}
            error={errorFor?.name === name ? errorFor.text : undefined}
          />
        ))}
      </div>
      <div className="cf-actions">
        <button type="submit" className="button button-primary" disabled={saving.busy}>
          {saving.busy ? t('domain.edit.saving') : t('domain.caseplan.saveCustom')}
        </button>
        {saving.error ? (
          <p role="alert" className="inline-error">
            {t('domain.edit.refused', { message: saving.error })}
          </p>
        ) : null}
      </div>
    </form>
  );
}

/** The values for a viewer who may only read them. */
function CustomFieldValues({ plan, properties }: { plan: Caseplan; properties: [string, PropertySchema][] }) {
  const shown = (name: string, prop: PropertySchema) => {
    const value = plan.custom[name];
    if (value === undefined || value === null || value === '') return '—';
    if (inputKind(prop) === 'boolean') return value === true ? t('domain.edit.yes') : t('domain.edit.no');
    if (inputKind(prop) === 'date' && typeof value === 'string') return dates().calendarDay(value) || value;
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
  return (
    <dl className="cf-values">
      {properties.map(([name, prop]) => (
        <div key={name}>
          <dt>{prop.title ?? name}</dt>
          <dd>{shown(name, prop)}</dd>
        </div>
      ))}
    </dl>
  );
}
