import { FIELD_VISIBILITY_KEYWORD, type FieldVisibility } from '@caseroom/protocol';

/**
 * The form builder's model of a custom-field schema (`caseplan-fields`, `client-fields`) and its two-way mapping
 * to the JSON Schema the server stores and validates with ajv.
 *
 * What the builder writes per field (a property of the root object schema):
 * - `title` (the label), `description`, `x-visibility` ('everyone' | 'staff'), `x-order` (position: the schema is
 *   stored as PostgreSQL `jsonb`, which does not keep the order of object keys);
 * - text `{type: 'string'}`, long text `{type: 'string', 'x-widget': 'textarea'}`, number `{type: 'number'}`
 *   (or `integer` when read so), yes/no `{type: 'boolean'}`, date `{type: 'string', format: 'date'}`, choice
 *   `{type: 'string', enum: [...]}`;
 * - the root's `required` array.
 * A property the builder cannot represent (an object, an array, a `$ref`, a union type, an enum of numbers, ...)
 * is kept verbatim and shown read-only; root keywords it does not edit (`additionalProperties`, `$schema`, ...)
 * and limits it does not edit on a field (`maxLength`, `minimum`, ...) are kept too, so a hand-made schema
 * survives a round trip through the builder.
 */

/** The field types the builder offers. */
export const FIELD_TYPES = ['text', 'longText', 'number', 'boolean', 'date', 'choice'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The extension keywords of this builder (ajv runs with `strict: false`, so it ignores them). */
export const ORDER_KEYWORD = 'x-order';
export const WIDGET_KEYWORD = 'x-widget';

/** A field the builder edits. */
export interface BuilderField {
  kind: 'field';
  /** The property name: where values are stored on the case plan; fixed once the field was saved. */
  key: string;
  /** True until the schema holding the field was saved: the key still follows the label. */
  isNew: boolean;
  label: string;
  description: string;
  type: FieldType;
  /** The choices of a `choice` field, in order. */
  options: string[];
  required: boolean;
  visibility: FieldVisibility;
  /** A number field read as `type: 'integer'` stays one. */
  integer: boolean;
  /** Keywords the builder keeps but does not edit (`maxLength`, `minimum`, `pattern`, `default`, ...). */
  extra: Record<string, unknown>;
}

/** A property the builder cannot represent: kept as it is, shown read-only, removable. */
export interface RawField {
  kind: 'raw';
  key: string;
  schema: unknown;
  required: boolean;
}

export type ModelField = BuilderField | RawField;

export interface FieldsModel {
  fields: ModelField[];
  /** Root keywords other than `type`, `properties` and `required` (kept verbatim). */
  rootExtra: Record<string, unknown>;
  /** Names in `required` without a property (kept, so saving changes nothing the builder did not touch). */
  orphanRequired: string[];
}

/** Keywords the builder writes itself. */
const OWNED = new Set([
  'type',
  'title',
  'description',
  'format',
  'enum',
  FIELD_VISIBILITY_KEYWORD,
  ORDER_KEYWORD,
  WIDGET_KEYWORD,
]);
/** Keywords kept untouched on a field the builder edits; any other keyword makes the field read-only. */
const KEPT = new Set([
  'maxLength',
  'minLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'default',
  'examples',
  '$comment',
  'readOnly',
  'deprecated',
]);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The builder type of a property schema, or null when the builder cannot represent it. */
function fieldTypeOf(prop: Record<string, unknown>): FieldType | null {
  for (const k of Object.keys(prop)) if (!OWNED.has(k) && !KEPT.has(k)) return null;
  const { type, format, enum: options } = prop;
  const widget = prop[WIDGET_KEYWORD];
  if (options !== undefined) {
    const strings = Array.isArray(options) && options.every((o) => typeof o === 'string');
    return strings && (type === undefined || type === 'string') && format === undefined ? 'choice' : null;
  }
  if (type === 'boolean' && format === undefined) return 'boolean';
  if ((type === 'number' || type === 'integer') && format === undefined) return 'number';
  if (type !== 'string') return null;
  if (format === 'date') return 'date';
  if (format !== undefined) return null;
  if (widget === 'textarea') return 'longText';
  return widget === undefined ? 'text' : null;
}

/** Reads a stored schema (one the builder wrote, or one written by hand) into the builder's model. */
export function schemaToModel(schema: Record<string, unknown>): FieldsModel {
  const { type: _type, properties, required, ...rootExtra } = schema;
  const props = isRecord(properties) ? properties : {};
  const requiredList = Array.isArray(required)
    ? required.filter((r): r is string => typeof r === 'string')
    : [];
  const entries = Object.entries(props).map(([key, prop], index) => {
    const order = isRecord(prop) && typeof prop[ORDER_KEYWORD] === 'number' ? prop[ORDER_KEYWORD] : null;
    return { key, prop, index, order };
  });
  // Ordered by `x-order`; fields without one keep their place in the document, after the ordered ones.
  entries.sort((a, b) => {
    if (a.order !== null && b.order !== null) return a.order - b.order || a.index - b.index;
    if (a.order !== null) return -1;
    if (b.order !== null) return 1;
    return a.index - b.index;
  });
  const fields = entries.map(({ key, prop }): ModelField => {
    const isRequired = requiredList.includes(key);
    const fieldType = isRecord(prop) ? fieldTypeOf(prop) : null;
    if (!isRecord(prop) || fieldType === null)
      return { kind: 'raw', key, schema: prop, required: isRequired };
    const extra: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(prop)) if (KEPT.has(k)) extra[k] = v;
    return {
      kind: 'field',
      key,
      isNew: false,
      label: typeof prop.title === 'string' ? prop.title : key,
      description: typeof prop.description === 'string' ? prop.description : '',
      type: fieldType,
      options: fieldType === 'choice' ? [...(prop.enum as string[])] : [],
      required: isRequired,
      visibility: prop[FIELD_VISIBILITY_KEYWORD] === 'staff' ? 'staff' : 'everyone',
      integer: prop.type === 'integer',
      extra,
    };
  });
  const keys = new Set(Object.keys(props));
  return { fields, rootExtra, orphanRequired: requiredList.filter((r) => !keys.has(r)) };
}

/** The property schema of one builder field, without its position. */
export function fieldSchema(field: BuilderField): Record<string, unknown> {
  const out: Record<string, unknown> = { ...field.extra };
  switch (field.type) {
    case 'text':
      out.type = 'string';
      break;
    case 'longText':
      out.type = 'string';
      out[WIDGET_KEYWORD] = 'textarea';
      break;
    case 'number':
      out.type = field.integer ? 'integer' : 'number';
      break;
    case 'boolean':
      out.type = 'boolean';
      break;
    case 'date':
      out.type = 'string';
      out.format = 'date';
      break;
    case 'choice':
      out.type = 'string';
      out.enum = cleanOptions(field.options);
      break;
  }
  out.title = field.label.trim() || field.key;
  const description = field.description.trim();
  if (description) out.description = description;
  out[FIELD_VISIBILITY_KEYWORD] = field.visibility;
  return out;
}

/** Choices as saved: trimmed, without blanks and repeats. */
export function cleanOptions(options: readonly string[]): string[] {
  return [...new Set(options.map((o) => o.trim()).filter((o) => o !== ''))];
}

/** Writes the model back as the JSON Schema to store (root `type: 'object'`, as the server requires). */
export function modelToSchema(model: FieldsModel): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  model.fields.forEach((field, index) => {
    // A raw property that is an object gets a position too (an extension keyword validation ignores).
    if (field.kind === 'raw')
      properties[field.key] = isRecord(field.schema)
        ? { ...field.schema, [ORDER_KEYWORD]: index }
        : field.schema;
    else properties[field.key] = { ...fieldSchema(field), [ORDER_KEYWORD]: index };
    if (field.required) required.push(field.key);
  });
  required.push(...model.orphanRequired.filter((r) => !required.includes(r)));
  return {
    ...model.rootExtra,
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
  };
}

/**
 * A property name from a label: camelCase ASCII letters and digits ("Intake date" -> `intakeDate`, "Skole/barnehage"
 * -> `skoleBarnehage`, "Første møte" -> `forsteMote`), never one of `taken`, never empty.
 */
export function keyFromLabel(label: string, taken: ReadonlySet<string>): string {
  const ascii = label
    .replace(/[æÆ]/g, 'ae')
    .replace(/[øØ]/g, 'o')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
  const words = ascii.split(/[^A-Za-z0-9]+/).filter(Boolean);
  let base = words
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase()))
    .join('');
  if (!base) base = 'field';
  if (/^[0-9]/.test(base)) base = `field${base}`;
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}${n}`;
  return key;
}

/** A new, empty text field with a key not yet used in `model`. */
export function newField(model: FieldsModel, label = ''): BuilderField {
  return {
    kind: 'field',
    key: keyFromLabel(label, new Set(model.fields.map((f) => f.key))),
    isNew: true,
    label,
    description: '',
    type: 'text',
    options: [],
    required: false,
    visibility: 'everyone',
    integer: false,
    extra: {},
  };
}

/** What would make the model unsavable: empty labels, choices without options, repeated labels. */
export type FieldProblem = { key: string; problem: 'label' | 'options' | 'duplicateLabel' };

export function modelProblems(model: FieldsModel): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const field of model.fields) {
    if (field.kind === 'raw') continue;
    const label = field.label.trim().toLowerCase();
    if (!label) problems.push({ key: field.key, problem: 'label' });
    else if (seen.has(label)) problems.push({ key: field.key, problem: 'duplicateLabel' });
    seen.add(label);
    if (field.type === 'choice' && cleanOptions(field.options).length === 0)
      problems.push({ key: field.key, problem: 'options' });
  }
  return problems;
}
