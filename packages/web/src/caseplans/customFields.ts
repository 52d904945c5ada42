/**
 * Custom fields on a case plan, without React: the schema property as the form reads it, which control it gets,
 * the value a submitted form holds for it, and which field a server refusal names.
 */

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
