import { z } from 'zod';

/**
 * Strict copies of the protocol's schemas, for tests: the shapes on the wire are checked with unknown keys failing,
 * while production neither parses what it sends nor pays for the copies (nothing here runs unless a test calls it).
 *
 * - A plain `z.object` becomes a `z.strictObject`: a key the protocol does not declare is an error.
 * - A `z.looseObject` is the protocol's way of saying "custom data sits here at the top level" (users, channels,
 *   messages, threads, custom events): its declared keys are checked strictly, and an undeclared key passes only if
 *   `customKey(key, path)` says it is custom data (the caller knows which custom fields it set), so a field the
 *   server adds without declaring it fails even there.
 * - Everything else is rebuilt around strict copies of its parts; leaves (strings, numbers, enums) stay as they are.
 */
export interface StrictOptions {
  /** Whether an undeclared key of an object that carries custom data is custom data (default: never). */
  customKey?: (key: string) => boolean;
}

type Def = z.core.$ZodTypeDef & Record<string, unknown>;

const cache = new WeakMap<z.ZodType, WeakMap<StrictOptions, z.ZodType>>();

/** The strict copy of `schema` (cached per schema and options object). */
export function strictSchema(schema: z.ZodType, options: StrictOptions = NO_CUSTOM): z.ZodType {
  let byOptions = cache.get(schema);
  if (!byOptions) {
    byOptions = new WeakMap();
    cache.set(schema, byOptions);
  }
  let strict = byOptions.get(options);
  if (!strict) {
    strict = build(schema, options);
    // An object's own checks (refinements across fields) still run: on the strict copy's output.
    const checks = (schema._zod.def as Def).checks;
    if (checks?.length && schema._zod.def.type === 'object') strict = strict.pipe(schema);
    byOptions.set(options, strict);
  }
  return strict;
}

const NO_CUSTOM: StrictOptions = {};

function build(schema: z.ZodType, options: StrictOptions): z.ZodType {
  const def = schema._zod.def as Def;
  const s = (inner: unknown) => strictSchema(inner as z.ZodType, options);
  switch (def.type) {
    case 'object': {
      const shape = Object.fromEntries(
        Object.entries(def.shape as Record<string, z.ZodType>).map(([k, v]) => [k, s(v)]),
      );
      const catchall = def.catchall as z.ZodType | undefined;
      if (catchall === undefined) return z.strictObject(shape);
      if (catchall._zod.def.type === 'never') return z.strictObject(shape);
      // Open for custom data: undeclared keys pass only when the caller calls them custom.
      const customKey = options.customKey ?? (() => false);
      return z.looseObject(shape).superRefine((value, ctx) => {
        for (const key of Object.keys(value)) {
          if (key in shape || customKey(key)) continue;
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `undeclared key "${key}" (not in the protocol's schema, nor custom data the test set)`,
          });
        }
      });
    }
    case 'array':
      return z.array(s(def.element));
    case 'optional':
      return s(def.innerType).optional();
    case 'nullable':
      return s(def.innerType).nullable();
    case 'default':
      return s(def.innerType).default(def.defaultValue as never);
    case 'readonly':
      return s(def.innerType).readonly();
    case 'record':
      return z.record(def.keyType as z.core.$ZodRecordKey, s(def.valueType));
    case 'union': {
      const opts = (def.options as z.ZodType[]).map(s);
      if (typeof def.discriminator === 'string') {
        return z.discriminatedUnion(def.discriminator, opts as [z.ZodObject, ...z.ZodObject[]]);
      }
      return z.union(opts as [z.ZodType, ...z.ZodType[]]);
    }
    case 'intersection':
      return z.intersection(s(def.left), s(def.right));
    case 'lazy':
      return z.lazy(() => s((def.getter as () => z.ZodType)()));
    case 'pipe': {
      // A branded or refined object keeps its checks: parse strictly first, then with the original.
      const inner = def.in as z.ZodType;
      return s(inner).pipe(schema as z.ZodType<unknown, unknown>);
    }
    default:
      return schema;
  }
}
