/**
 * A timestamp as PostgreSQL writes it inside `to_jsonb` with the session in UTC: `2026-11-21T03:51:58.322456+00:00`
 * (fraction optional, up to microseconds).
 */
const PG_UTC = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00:00$/;

/** Instants written already (ms since the epoch -> ISO string), at most {@link WRITTEN_MAX}; emptied when full. */
const written = new Map<number, string>();
const WRITTEN_MAX = 4096;

/**
 * `date.toISOString()`, remembered by instant: the same few instants come back on every send (the author's and the
 * channel's times, a message's `created_at` and `updated_at`) and the builtin costs ~0.5 us a call. An invalid
 * Date throws as the builtin does (NaN is never remembered).
 */
function dateIso(date: Date): string {
  const ms = date.getTime();
  let text = written.get(ms);
  if (text === undefined) {
    text = date.toISOString();
    if (written.size >= WRITTEN_MAX) written.clear();
    written.set(ms, text);
  }
  return text;
}

/** ISO-8601 time for the wire; rows may carry a Date (columns) or a string (inside to_jsonb). */
export function iso(value: Date | string): string;
export function iso(value: Date | string | null | undefined): string | undefined;
export function iso(value: Date | string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string') return dateIso(value);
  // Rewritten without a Date (parsing one is most of a member list's presenting): milliseconds truncated, as Date does.
  const utc = PG_UTC.exec(value);
  if (utc) return `${utc[1] as string}.${`${utc[2] ?? ''}000`.slice(0, 3)}Z`;
  return new Date(value).toISOString();
}
