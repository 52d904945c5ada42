import { useId } from 'react';
import { t } from '../i18n/t';
import './caseplanEdit.css';

/** One property of a custom-field schema, as far as the form reads it. */
export interface PropertySchema {
  type?: string | string[];
  format?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  'x-widget'?: string;
  'x-visibility'?: string;
}

/** The kind of control a property gets; `other` (arrays, objects, unions) is shown read-only. */
export type InputKind = 'text' | 'longText' | 'number' | 'boolean' | 'date' | 'choice' | 'other';

export function inputKind(prop: PropertySchema): InputKind {
  if (Array.isArray(prop.enum)) return 'choice';
  if (prop.type === 'boolean') return 'boolean';
  if (prop.type === 'number' || prop.type === 'integer') return 'number';
  if (prop.type === 'string' || prop.type === undefined) {
    if (prop.format === 'date') return 'date';
    if (prop['x-widget'] === 'textarea') return 'longText';
    return prop.type === 'string' ? 'text' : 'other';
  }
  return 'other';
}

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

/** The value of one field from the submitted form, as the schema wants it (`null`: clear the field). */
export function readFieldValue(form: FormData, name: string, prop: PropertySchema): unknown {
  const kind = inputKind(prop);
  const raw = form.get(name);
  if (kind === 'boolean') return raw === 'on';
  if (raw === null || String(raw).trim() === '') return null;
  if (kind === 'number') return Number(raw);
  return String(raw).trim();
}

/**
 * Which field a server refusal is about, from ajv's message as the server words it ("Invalid custom fields:
 * intakeDate must match format \"date\"", "Invalid custom fields: must have required property 'goal'").
 */
export function fieldOfError(
  message: string,
  names: readonly string[],
): { name: string; text: string } | null {
  const rest = message.replace(/^Invalid custom fields:\s*/, '');
  if (rest === message) return null;
  const required = /must have required property '([^']+)'/.exec(rest);
  if (required?.[1] && names.includes(required[1])) return { name: required[1], text: rest };
  const [first = '', ...others] = rest.split(' ');
  const name = first.split('.')[0] ?? '';
  return names.includes(name) ? { name, text: others.join(' ') } : null;
}
