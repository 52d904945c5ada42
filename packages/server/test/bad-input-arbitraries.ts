import fc from 'fast-check';
import type { z } from 'zod';

/**
 * fast-check arbitraries of hostile input, shaped by a protocol schema: every field of the schema gets either a
 * plausible value or a hostile one (wrong type, Object.prototype names, NUL and unpaired surrogates, far dates,
 * huge numbers, oversized and deeply nested JSON, filter-like objects with unknown fields and operators), and
 * objects get hostile extra keys. Used by the bad-input property test on every endpoint of CHAT_ENDPOINTS.
 */

/** Strings PostgreSQL or the SQL builders have choked on. */
export const HOSTILE_STRINGS = [
  'toString',
  'constructor',
  '__proto__',
  'hasOwnProperty',
  'a\u0000b',
  '\u0000',
  '\uD800',
  'x\uDFFF',
  '\uDBFF\uDBFF',
  'not-a-date',
  '300000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  '0000-00-00',
  '9999-12-31T23:59:59.999999999Z',
  '',
  ' ',
  "'; DROP TABLE chat_messages; --",
  '%_\\',
  '1e400',
  'NaN',
  'true',
  '$and',
  'messaging:',
  ':',
  '../../etc',
] as const;

const HOSTILE_NUMBERS = [
  -1,
  0,
  0.5,
  -0.5,
  2 ** 31,
  2 ** 53,
  -(2 ** 63),
  1e20,
  1e308,
  -1e308,
  8.64e15,
] as const;

/** Field names a filter or a set might use: real columns of every filter, and hostile ones. */
const FIELD_NAMES = [
  'cid',
  'id',
  'type',
  'name',
  'frozen',
  'disabled',
  'cooldown',
  'created_at',
  'updated_at',
  'last_message_at',
  'member_count',
  'members',
  'invite',
  'hidden',
  'muted',
  'pinned',
  'text',
  'user_id',
  'user.id',
  'reply_count',
  'silent',
  'banned',
  'channel_role',
  'role',
  'mentioned_users.id',
  'pin_expires',
  'team',
  'custom',
  ...HOSTILE_STRINGS,
];

const OPERATORS = [
  '$eq',
  '$ne',
  '$in',
  '$nin',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$exists',
  '$autocomplete',
  '$q',
  '$contains',
  '$and',
  '$or',
  '$nor',
  '$where',
  '$toString',
];

export const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constant('x'.repeat(6000)),
);

const hostileNumber = fc.oneof(fc.constantFrom(...HOSTILE_NUMBERS), fc.double({ noNaN: true }));

export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
);

/** `{"$and": [{"$and": [...]}]}`, 20 to 400 levels (JSON.stringify in this process manages that deep). */
const deepFilter = fc.integer({ min: 20, max: 400 }).map((depth) => {
  let f: Record<string, unknown> = { name: 'x' };
  for (let i = 0; i < depth; i++) f = { $and: [f] };
  return f;
});

/** Filter-like and custom-data-like JSON: real and hostile field names, operators, values and nesting. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{
  filter: Record<string, unknown>;
  value: unknown;
}>((tie) => ({
  filter: fc.dictionary(fc.constantFrom(...FIELD_NAMES, ...OPERATORS), tie('value'), { maxKeys: 3 }),
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileScalar,
    fc.array(hostileScalar, { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...OPERATORS), fc.oneof(hostileScalar, fc.array(hostileScalar)), {
      maxKeys: 2,
    }),
    fc.array(tie('filter'), { maxLength: 2 }),
    tie('filter'),
  ),
})).filter;

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileScalar },
  { weight: 3, arbitrary: hostileJson },
  { weight: 1, arbitrary: deepFilter },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constant({ notes: 'x'.repeat(6000) }) },
);

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  entries?: Record<string, string>;
  values?: unknown[];
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema inside wrappers (optional, nullable, default, pipe, intersection). */
function unwrap(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  if (['optional', 'nullable', 'default', 'readonly'].includes(def.type))
    return unwrap(def.innerType as z.ZodType);
  if (def.type === 'pipe') return unwrap(def.in as z.ZodType);
  if (def.type === 'intersection') return unwrap(def.left as z.ZodType);
  return schema;
}

/** Plausible values for strings (ids of the fixtures, names, dates in range). */
export interface Plausible {
  strings: readonly string[];
}

/** A valid-looking value for `schema`, so that one bad field (below) gets past the others. */
function plausibleFor(
  schema: z.ZodType,
  plausible: Plausible,
  all: boolean,
  depth = 0,
): fc.Arbitrary<unknown> {
  const def = defOf(unwrap(schema));
  switch (def.type) {
    case 'object': {
      const shape = def.shape ?? {};
      const fields = Object.fromEntries(
        Object.entries(shape).map(([k, v]) => [k, plausibleFor(v, plausible, all, depth + 1)]),
      );
      // Required fields only (unless `all`): the one bad field (below) should be what the server looks at.
      const required = Object.keys(shape).filter(
        (k) => all || defOf(shape[k] as z.ZodType).type !== 'optional',
      );
      return fc.record(Object.fromEntries(required.map((k) => [k, fields[k] as fc.Arbitrary<unknown>])));
    }
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(plausibleFor(def.element as z.ZodType, plausible, all, depth + 1), {
            minLength: all ? 1 : 0,
            maxLength: 2,
          });
    case 'union':
      return fc.oneof(...(def.options ?? []).map((o) => plausibleFor(o, plausible, all, depth)));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'string':
      return fc.constantFrom(...plausible.strings);
    case 'number':
      return fc.integer({ min: 1, max: 20 });
    case 'boolean':
      return fc.boolean();
    default:
      return fc.constant({});
  }
}

type Path = Array<string | number>;
/** A path step standing for any field name (custom data, filters, unknown keys of a loose object). */
const ANY = '*';

/** Where a bad value can go in a value of `schema`: every field, item and custom key, a few levels down. */
function pathsOf(schema: z.ZodType, depth = 0): Path[] {
  if (depth > 3) return [];
  const def = defOf(unwrap(schema));
  const below = (step: string | number, inner: z.ZodType): Path[] => [
    [step],
    ...pathsOf(inner, depth + 1).map((p) => [step, ...p]),
  ];
  switch (def.type) {
    case 'object':
      return [...Object.entries(def.shape ?? {}).flatMap(([k, v]) => below(k, v)), [ANY]];
    case 'array':
      return below(0, def.element as z.ZodType);
    case 'union':
      return (def.options ?? []).flatMap((o) => pathsOf(o, depth));
    case 'string':
    case 'number':
    case 'boolean':
    case 'enum':
    case 'literal':
      return [];
    default:
      // Records and unknown values: custom data and filters.
      return [[ANY], [ANY, '$gt'], [ANY, '$in', 0], [ANY, '$eq'], ['$and', 0, ANY], ['$or', 1, ANY, '$lt']];
  }
}

/** `value` with `bad` set at `path`; what is missing on the way comes from `full` (a value with every field). */
function setPath(value: unknown, path: Path, bad: unknown, full: unknown): unknown {
  if (path.length === 0) return bad;
  const [step, ...rest] = path as [string | number, ...Path];
  if (value === undefined && full !== undefined) value = full;
  const copy = Array.isArray(value) ? [...(value as unknown[])] : { ...(value as object) };
  const fresh = typeof step === 'number' ? [] : {};
  const base = (typeof value === 'object' && value !== null ? copy : fresh) as Record<
    string | number,
    unknown
  >;
  const fuller =
    typeof full === 'object' && full !== null ? (full as Record<string | number, unknown>)[step] : undefined;
  base[step] = setPath(base[step], rest, bad, fuller);
  return base;
}

/** The classes of values that used to reach PostgreSQL unchecked. */
const dangerous: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('a\u0000b', '\u0000', '\uD800', 'x\uDFFF', '\uDBFF\uDBFF') },
  { weight: 2, arbitrary: fc.constantFrom('toString', 'constructor', '__proto__', 'valueOf') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('not-a-date', '300000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'),
  },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null, [], {}, ['x'], [1, 2]) },
  { weight: 2, arbitrary: hostileJson },
  { weight: 1, arbitrary: deepFilter },
  { weight: 1, arbitrary: fc.constant('x'.repeat(6000)) },
  { weight: 1, arbitrary: fc.constant({ notes: 'x'.repeat(6000) }) },
);

/**
 * A request value for `schema`: a plausible value with one field (or custom key, filter field or operand) made bad;
 * now and then the whole value is replaced or two fields are bad.
 */
export function arbitraryFor(schema: z.ZodType, plausible: Plausible): fc.Arbitrary<unknown> {
  const paths = pathsOf(schema);
  const names = fc.constantFrom(...FIELD_NAMES);
  const mutation = fc
    .tuple(paths.length ? fc.constantFrom(...paths) : fc.constant<Path>([]), names, dangerous)
    .map(([path, name, bad]) => ({ path: path.map((p) => (p === ANY ? name : p)), bad }));
  // The value is the required fields or every field (some refer to things that do not exist); the bad one goes in.
  const full = plausibleFor(schema, plausible, true);
  const base = fc.tuple(fc.oneof(plausibleFor(schema, plausible, false), full), full);
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc.tuple(base, mutation).map(([[v, full], m]) => setPath(v, m.path, m.bad, full)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(base, mutation, mutation)
        .map(([[v, full], a, b]) => setPath(setPath(v, a.path, a.bad, full), b.path, b.bad, full)),
    },
    { weight: 1, arbitrary: hostileValue },
  );
}
