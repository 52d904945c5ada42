import { z } from 'zod';
import { INPUT_LIMITS } from './constants.js';

/**
 * What every request may carry, checked the same way by the chat API, the product API and the clients: text that
 * PostgreSQL can store, JSON that is not absurdly deep, dates inside the range every layer can represent, and custom
 * data of a bounded size.
 */

/**
 * NUL (PostgreSQL refuses it in `text` and `jsonb`) and UTF-16 surrogates without their pair (`jsonb` refuses
 * them; `text` would silently turn them into U+FFFD).
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSAFE_CHARACTER = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSAFE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

/** True when PostgreSQL can store the string as it is. */
export function isSafeText(s: string): boolean {
  return !UNSAFE_CHARACTER.test(s);
}

/** A problem found in a request value, with the path of the offending field (`message.custom.a`). */
export interface InputProblem {
  path: Array<string | number>;
  message: string;
}

/** `a.b.0.c` for messages (an empty path is the whole value). */
export function pathText(path: ReadonlyArray<string | number>, root = 'body'): string {
  return path.length ? path.join('.') : root;
}

/**
 * The first problem in a JSON-like value: a string or object key PostgreSQL would refuse, or nesting deeper than
 * `maxDepth`. Walks without recursion, so a hostile 100,000-deep value cannot overflow the stack.
 */
export function findUnsafeInput(
  value: unknown,
  maxDepth: number = INPUT_LIMITS.maxJsonDepth,
): InputProblem | undefined {
  const stack: Array<{ value: unknown; path: Array<string | number> }> = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop() as { value: unknown; path: Array<string | number> };
    if (typeof v === 'string') {
      if (!isSafeText(v)) return { path, message: UNSAFE_TEXT_MESSAGE };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= maxDepth) return { path, message: `is nested deeper than ${maxDepth} levels` };
    if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ value: item, path: [...path, i] }));
      continue;
    }
    for (const [key, item] of Object.entries(v)) {
      if (!isSafeText(key)) return { path: [...path, key], message: `name ${UNSAFE_TEXT_MESSAGE}` };
      stack.push({ value: item, path: [...path, key] });
    }
  }
  return undefined;
}

/** Size of a value as stored (UTF-8 bytes of its JSON). */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value) ?? '').length;
}

/** The message when custom data is over its limit, or undefined. */
export function customDataProblem(what: string, value: unknown, maxBytes: number): string | undefined {
  const bytes = jsonBytes(value);
  return bytes > maxBytes
    ? `${what} custom data is ${bytes} bytes of JSON, the maximum is ${maxBytes}`
    : undefined;
}

/** A zod check for any JSON value: its strings and keys PostgreSQL can store, its nesting bounded. */
export function refineSafeJson(value: unknown, ctx: z.RefinementCtx): void {
  const problem = findUnsafeInput(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path });
}

/** A string PostgreSQL can store (no NUL, no unpaired surrogate). */
export const SafeText = z.string().refine(isSafeText, UNSAFE_TEXT_MESSAGE);

/** Any JSON value whose strings and keys PostgreSQL can store, nested at most `maxJsonDepth` levels. */
export const SafeJson = z.unknown().superRefine(refineSafeJson);

/** Earliest and latest instants a request may name: four-digit years, inside JavaScript's and PostgreSQL's range. */
export const DATE_RANGE = {
  min: Date.UTC(1, 0, 1),
  max: Date.UTC(9999, 11, 31, 23, 59, 59, 999),
} as const;

/** The instant of an ISO-8601 date string, or undefined when it is not one or lies outside {@link DATE_RANGE}. */
export function parseRequestDate(value: unknown): Date | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}(:?\d{2})?)?)?$/.test(value)) {
    return undefined;
  }
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || ms < DATE_RANGE.min || ms > DATE_RANGE.max) return undefined;
  return new Date(ms);
}

export const DATE_EXPECTED = 'an ISO-8601 date between the years 0001 and 9999';
export const DATE_MESSAGE = `must be ${DATE_EXPECTED}`;

/** Custom data in a request: an object whose keys and strings PostgreSQL can store, not absurdly deep. */
export const SafeRecord = z.record(z.string(), z.unknown()).superRefine(refineSafeJson);

/** A date in a request: an ISO-8601 string within {@link DATE_RANGE}. */
export const RequestDate = z.string().refine((s) => parseRequestDate(s) !== undefined, DATE_MESSAGE);
