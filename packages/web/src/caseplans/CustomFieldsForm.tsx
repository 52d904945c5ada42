import type { Caseplan } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { ActionForm, Field } from './ui';

interface PropertySchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

/**
 * The case plan's custom fields as a form generated from the organization's `caseplan-fields` JSON Schema
 * (strings, numbers, booleans and enums; the server validates the result against the same schema).
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
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const names = Object.keys(properties);
  if (names.length === 0) return <p className="muted">{t('domain.caseplan.noCustom')}</p>;
  return (
    <ActionForm
      label={t('domain.caseplan.custom')}
      submit={t('domain.caseplan.saveCustom')}
      onSubmit={async (form) => {
        const custom: Record<string, unknown> = {};
        for (const name of names) {
          const prop = properties[name] ?? {};
          const raw = form.get(name);
          if (prop.type === 'boolean') custom[name] = raw === 'on';
          else if (raw === null || raw === '') custom[name] = null;
          else if (prop.type === 'number' || prop.type === 'integer') custom[name] = Number(raw);
          else custom[name] = String(raw);
        }
        await callFunction('caseplans-updateCustom', { caseplanId: plan.id, custom });
        onSaved();
        return false;
      }}
    >
      {names.map((name) => {
        const prop = properties[name] ?? {};
        const value = plan.custom[name];
        const label = prop.title ?? name;
        const disabled = plan.closed;
        if (prop.enum) {
          return (
            <Field key={name} label={label}>
              <select name={name} defaultValue={value === undefined ? '' : String(value)} disabled={disabled}>
                <option value="">—</option>
                {prop.enum.map((v) => (
                  <option key={String(v)} value={String(v)}>
                    {String(v)}
                  </option>
                ))}
              </select>
            </Field>
          );
        }
        if (prop.type === 'boolean') {
          return (
            <Field key={name} label={label}>
              <input type="checkbox" name={name} defaultChecked={value === true} disabled={disabled} />
            </Field>
          );
        }
        const numeric = prop.type === 'number' || prop.type === 'integer';
        return (
          <Field key={name} label={label}>
            <input
              name={name}
              type={numeric ? 'number' : 'text'}
              defaultValue={value === undefined || value === null ? '' : String(value)}
              {...(prop.maxLength !== undefined ? { maxLength: prop.maxLength } : {})}
              {...(prop.minimum !== undefined ? { min: prop.minimum } : {})}
              {...(prop.maximum !== undefined ? { max: prop.maximum } : {})}
              disabled={disabled}
            />
          </Field>
        );
      })}
    </ActionForm>
  );
}
