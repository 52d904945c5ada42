import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ProductError } from '../errors.js';

/**
 * JSON Schema validation of custom fields (`caseplan-fields`, `client-fields`) with ajv: the schemas are the
 * organization's own documents, so they are compiled once and cached by their text. Remote `$ref`s are never
 * fetched (ajv does not load schemas on its own).
 */
const ajv = new Ajv({ allErrors: true, strict: false });
// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;
addFormats(ajv);

const cache = new Map<string, ValidateFunction>();
const CACHE_LIMIT = 500;

/** Compiles (or finds) the validator; a schema ajv cannot compile is 'invalid-argument'. */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw new ProductError('invalid-argument', `Invalid schema: ${(err as Error).message}`);
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, validate);
  return validate;
}

/** A settings schema must describe an object (custom fields are a map of named fields). */
export function checkSettingsSchema(schema: Record<string, unknown>): void {
  if (schema.type !== 'object') {
    throw new ProductError('invalid-argument', 'Invalid schema: the root must have "type": "object"');
  }
  compileSchema(schema);
}

function describe(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return 'Invalid custom fields';
  const where = first.instancePath ? first.instancePath.slice(1).replace(/\//g, '.') : '';
  return `Invalid custom fields: ${where ? `${where} ` : ''}${first.message ?? 'is invalid'}`;
}

/** Throws 'invalid-argument' with the first problem when `value` does not match `schema`. */
export function validateCustomFields(schema: Record<string, unknown>, value: unknown): void {
  const validate = compileSchema(schema);
  if (!validate(value)) throw new ProductError('invalid-argument', describe(validate.errors));
}
