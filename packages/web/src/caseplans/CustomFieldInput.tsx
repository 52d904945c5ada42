import { useId } from 'react';
import { t } from '../i18n/t';
import { inputKind, type PropertySchema } from './customFields';
import './caseplanEdit.css';

/** A value as the control shows it. */
function shown(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * One custom field as a labelled control: the type's input (date picker, multi-line text, choice, yes/no, number,
 * text), a required marker, the field's description and, after the server refused a save, its message — tied
 * to the control with `aria-describedby` and `aria-invalid`. Used by the case-plan form and the builder's preview.
 */
export function CustomFieldInput(props: {
  name: string;
  prop: PropertySchema;
  value: unknown;
  required: boolean;
  disabled?: boolean;
  error?: string | undefined;
}) {
  const { name, prop, value, required, disabled = false, error } = props;
  const id = useId();
  const kind = inputKind(prop);
  const label = prop.title ?? name;
  const hintId = prop.description ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    disabled,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
  } as const;
  const labelText = (
    <>
      {label}
      {required ? (
        <span className="cf-required">
          <span aria-hidden="true"> *</span>
          <span className="visually-hidden"> {t('domain.edit.requiredMark')}</span>
        </span>
      ) : null}
      {prop['x-visibility'] === 'staff' ? (
        <span className="tag cf-staff">{t('domain.fields.staffOnlyTag')}</span>
      ) : null}
    </>
  );
  let control;
  switch (kind) {
    case 'boolean':
      control = <input {...common} type="checkbox" defaultChecked={value === true} />;
      break;
    case 'choice':
      control = (
        <select {...common} required={required} defaultValue={shown(value)}>
          <option value="">{t('domain.edit.choose')}</option>
          {(prop.enum ?? []).map((v) => (
            <option key={String(v)} value={String(v)}>
              {String(v)}
            </option>
          ))}
        </select>
      );
      break;
    case 'longText':
      control = (
        <textarea
          {...common}
          rows={4}
          required={required}
          defaultValue={shown(value)}
          {...(prop.maxLength !== undefined ? { maxLength: prop.maxLength } : {})}
        />
      );
      break;
    case 'other':
      control = <output id={id}>{shown(value) || '—'}</output>;
      break;
    default:
      control = (
        <input
          {...common}
          type={kind === 'number' ? 'number' : kind === 'date' ? 'date' : 'text'}
          step={kind === 'number' ? (prop.type === 'integer' ? 1 : 'any') : undefined}
          required={required}
          defaultValue={shown(value)}
          {...(prop.maxLength !== undefined ? { maxLength: prop.maxLength } : {})}
          {...(prop.minLength !== undefined ? { minLength: prop.minLength } : {})}
          {...(prop.pattern !== undefined ? { pattern: prop.pattern } : {})}
          {...(prop.minimum !== undefined ? { min: prop.minimum } : {})}
          {...(prop.maximum !== undefined ? { max: prop.maximum } : {})}
        />
      );
  }
  return (
    <div className={`cf-field cf-${kind}`}>
      <label className="field-label" htmlFor={id}>
        {labelText}
      </label>
      {control}
      {prop.description ? (
        <p id={hintId} className="cf-hint">
          {prop.description}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="cf-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
