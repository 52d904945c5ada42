import {
  CHAT_LIMITS,
  DATE_EXPECTED,
  findUnsafeInput,
  isSafeText,
  parseRequestDate,
} from '@caseroom/protocol';
import { inputError } from '../errors.js';

/**
 * The one validator and translator of query filters (channels, messages of a search, members, users): every field
 * is looked up in an allow-list (a `Map`, so `toString` or `constructor` are just unknown names), every operator in
 * the field's own list, every operand checked against the field's type before it becomes a parameter, and the whole
 * filter bounded in depth and size (chat-spec §7; limits in CHAT_LIMITS). Anything else is code 4 naming the field.
 */

/** What a field's operands must be. `ids`: a user id or a list of them. `json`: any JSON (custom data). */
export type ValueKind = 'text' | 'boolean' | 'int' | 'date' | 'json' | 'ids';

/** A parameter placeholder for a value (`$3`). */
export type Param = (value: unknown) => string;

export interface FieldRule {
  kind: ValueKind;
  ops: ReadonlySet<string>;
  /** SQL of one checked condition (dates arrive as ISO strings, `$in` lists as arrays). */
  build: (op: string, value: unknown, p: Param) => string;
}

export type LogicalOp = '$and' | '$or' | '$nor';

export interface FilterSpec {
  /** What is filtered, for messages: `cannot filter channels by x`. */
  what: string;
  fields: ReadonlyMap<string, FieldRule>;
  logical: ReadonlySet<LogicalOp>;
  /** The rule for a field not in `fields` (custom fields of channels); undefined refuses the field. */
  other?: (field: string) => FieldRule | undefined;
}

const COMPARE = new Map([
  ['$gt', '>'],
  ['$gte', '>='],
  ['$lt', '<'],
  ['$lte', '<='],
]);

/** Every operator a plain column takes; a field may allow fewer. */
export const COLUMN_OPS = ['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists'] as const;

/** The standard translation of a column's operators. */
export function columnField(sql: string, kind: ValueKind, ops: readonly string[] = COLUMN_OPS): FieldRule {
  return {
    kind,
    ops: new Set(ops),
    build(op, value, p) {
      switch (op) {
        case '$eq':
          return `${sql} = ${p(value)}`;
        case '$ne':
          return `${sql} IS DISTINCT FROM ${p(value)}`;
        case '$in':
          return `${sql} = ANY(${p(value)})`;
        case '$nin':
          return `NOT (${sql} = ANY(${p(value)}))`;
        case '$exists':
          return value ? `${sql} IS NOT NULL` : `${sql} IS NULL`;
        case '$autocomplete':
          return `${sql}::text ILIKE ${p(`%${likeEscape(String(value))}%`)}`;
        default:
          return `${sql} ${COMPARE.get(op) ?? '='} ${p(value)}`;
      }
    },
  };
}

export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}

const INT_MAX = 2 ** 31 - 1;

/** The operand as the SQL parameter, or a code 4 naming the field. */
function checkValue(kind: ValueKind, value: unknown, field: string): unknown {
  const bad = (expected: string) => inputError(`filter value for ${field} must be ${expected}`);
  switch (kind) {
    case 'text':
    case 'ids':
      if (typeof value !== 'string') throw bad('a string');
      if (!isSafeText(value)) throw bad('text without NUL characters or unpaired surrogates');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw bad('true or false');
      return value;
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > INT_MAX) {
        throw bad(`an integer between -${INT_MAX} and ${INT_MAX}`);
      }
      return value;
    case 'date': {
      const date = parseRequestDate(value);
      if (!date) throw bad(DATE_EXPECTED);
      return date.toISOString();
    }
    case 'json': {
      const problem = findUnsafeInput(value);
      if (problem) throw bad(`JSON whose text ${problem.message}`);
      return value;
    }
  }
}

function checkList(kind: ValueKind, value: unknown, field: string, op: string): unknown[] {
  if (!Array.isArray(value)) throw inputError(`${op} on ${field} needs an array`);
  if (value.length > CHAT_LIMITS.maxFilterValues) {
    throw inputError(`${op} on ${field} takes at most ${CHAT_LIMITS.maxFilterValues} values`);
  }
  return value.map((v) => checkValue(kind === 'ids' ? 'text' : kind, v, field));
}

/** The checked operand of `op` on a field of `kind`. */
function operand(kind: ValueKind, op: string, value: unknown, field: string): unknown {
  if (op === '$in' || op === '$nin') return checkList(kind, value, field, op);
  if (op === '$exists') return checkValue('boolean', value, field);
  if (op === '$autocomplete' || op === '$q' || op === '$contains') return checkValue('text', value, field);
  if (kind === 'ids' && Array.isArray(value)) return checkList(kind, value, field, op);
  if (kind === 'json' && COMPARE.has(op)) {
    if (!['string', 'number', 'boolean'].includes(typeof value)) {
      throw inputError(`filter value for ${field} must be a string, number or boolean`);
    }
  }
  return checkValue(kind, value, field);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `{$gt: 1, $lt: 5}` rather than a value (a custom field's value may itself be an object). */
function isOperatorObject(v: unknown): v is Record<string, unknown> {
  const keys = isPlainObject(v) ? Object.keys(v) : [];
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/** Translates a filter with `spec`; values go in as parameters through `p`. */
export function compileFilter(spec: FilterSpec, filter: unknown, p: Param): string {
  let conditions = 0;
  const count = () => {
    if (++conditions > CHAT_LIMITS.maxFilterConditions) {
      throw inputError(`a filter may hold at most ${CHAT_LIMITS.maxFilterConditions} conditions`);
    }
  };

  const object = (value: unknown, depth: number, where: string): string => {
    if (!isPlainObject(value)) throw inputError(`${where} takes filter objects`);
    const parts = Object.entries(value).map(([key, v]) => entry(key, v, depth));
    return parts.length ? parts.map((s) => `(${s})`).join(' AND ') : 'true';
  };

  const entry = (key: string, value: unknown, depth: number): string => {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!spec.logical.has(key)) throw inputError(`${key} is not supported on ${spec.what}`);
      if (depth >= CHAT_LIMITS.maxFilterDepth) {
        throw inputError(`${key}: filters nest at most ${CHAT_LIMITS.maxFilterDepth} levels deep`);
      }
      if (!Array.isArray(value) || value.length === 0) throw inputError(`${key} needs a non-empty array`);
      const parts = value.map((v) => `(${object(v, depth + 1, key)})`);
      if (key === '$and') return parts.join(' AND ');
      if (key === '$or') return parts.join(' OR ');
      return `NOT (${parts.join(' OR ')})`;
    }
    if (key.startsWith('$')) throw inputError(`unknown filter operator ${key}`);
    const rule = spec.fields.get(key) ?? spec.other?.(key);
    if (!rule) throw inputError(`cannot filter ${spec.what} by ${key}`);
    const ops = isOperatorObject(value) ? Object.entries(value) : [['$eq', value] as const];
    return ops
      .map(([op, v]) => {
        count();
        if (!rule.ops.has(op)) throw inputError(`operator ${op} is not supported on ${spec.what}.${key}`);
        return `(${rule.build(op, operand(rule.kind, op, v, key), p)})`;
      })
      .join(' AND ');
  };

  return object(filter ?? {}, 0, 'filter_conditions');
}

/** ORDER BY terms from an allow-list of sort fields (code 4 naming a field not in it). */
export function sortSql(
  what: string,
  columns: ReadonlyMap<string, string>,
  sort: ReadonlyArray<{ field: string; direction: 1 | -1 }>,
): string[] {
  return sort.map((s) => {
    const column = columns.get(s.field);
    if (!column) throw inputError(`cannot sort ${what} by ${s.field}`);
    return `${column} ${s.direction === -1 ? 'DESC' : 'ASC'} NULLS LAST`;
  });
}
