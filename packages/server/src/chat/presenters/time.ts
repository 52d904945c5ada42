/**
 * A timestamp as PostgreSQL writes it inside `to_jsonb` with the session in UTC: `2026-11-21T03:51:58.322456+00:00`
 * (fraction optional, up to microseconds).
 */
const PG_UTC = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00:00$/;

/** ISO-8601 time for the wire; rows may carry a Date (columns) or a string (inside to_jsonb). */
export function iso(value: Date | string): string;
export function iso(value: Date | string | null | undefined): string | undefined;
export function iso(value: Date | string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string') return value.toISOString();
  // Rewritten without a Date (parsing one is most of a member list's presenting): milliseconds truncated, as Date does.
  const utc = PG_UTC.exec(value);
  if (utc) return `${utc[1] as string}.${`${utc[2] ?? ''}000`.slice(0, 3)}Z`;
  return new Date(value).toISOString();
}
