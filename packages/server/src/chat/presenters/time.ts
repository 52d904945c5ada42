/** ISO-8601 time for the wire; rows may carry a Date (columns) or a string (inside to_jsonb). */
export function iso(value: Date | string): string;
export function iso(value: Date | string | null | undefined): string | undefined;
export function iso(value: Date | string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  return (typeof value === 'string' ? new Date(value) : value).toISOString();
}
