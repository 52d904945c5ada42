import type { PropertySchema } from './customFields';

/**
 * The properties of a custom-field schema in the order the form builder set (`x-order`; the schema is stored as
 * `jsonb`, which does not keep key order). Properties without a position follow, in document order.
 */
export function orderedProperties(schema: Record<string, unknown>): [string, PropertySchema][] {
  const props = schema.properties;
  if (typeof props !== 'object' || props === null || Array.isArray(props)) return [];
  const position = (p: unknown) => {
    const order = (p as Record<string, unknown> | null)?.['x-order'];
    return typeof order === 'number' ? order : Number.POSITIVE_INFINITY;
  };
  return Object.entries(props as Record<string, unknown>)
    .map((entry, index) => ({ entry, index, order: position(entry[1]) }))
    .sort((a, b) => (a.order === b.order ? a.index - b.index : a.order - b.order))
    .filter(({ entry }) => typeof entry[1] === 'object' && entry[1] !== null)
    .map(({ entry }) => entry as [string, PropertySchema]);
}
