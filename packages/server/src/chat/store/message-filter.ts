import { inputError } from '../errors.js';

/** Message fields `message_filter_conditions` of a search may use, and their SQL over `chat_messages m`. */
const FIELDS: Record<string, string> = {
  id: 'm.id',
  text: 'm.text',
  type: 'm.type',
  user_id: 'm.user_id',
  'user.id': 'm.user_id',
  parent_id: 'm.parent_id',
  created_at: 'm.created_at',
  updated_at: 'm.updated_at',
  pinned: 'm.pinned',
  reply_count: 'm.reply_count',
  silent: 'm.silent',
};

const COMPARE: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

/** Words of a search string as a prefix tsquery (`care plan` -> `care:* & plan:*`); undefined when it has none. */
export function prefixQuery(text: string): string | undefined {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return words?.length ? words.map((w) => `${w}:*`).join(' & ') : undefined;
}

/**
 * Translates `message_filter_conditions` into SQL (values as parameters through `param`). Operators: $eq $ne $in
 * $nin $gt $gte $lt $lte $exists, `$autocomplete` and `$q` (full text) on `text`, `$contains` on
 * `mentioned_users.id`, and $and / $or.
 */
export function messageFilterSql(filter: Record<string, unknown>, param: (v: unknown) => string): string {
  const parts = Object.entries(filter).map(([field, raw]) => {
    if (field === '$and' || field === '$or') {
      if (!Array.isArray(raw) || raw.length === 0) throw inputError(`${field} needs a non-empty array`);
      const sub = raw.map((f) => `(${messageFilterSql(f as Record<string, unknown>, param)})`);
      return sub.join(field === '$and' ? ' AND ' : ' OR ');
    }
    const ops =
      typeof raw === 'object' && raw !== null && !Array.isArray(raw)
        ? (raw as Record<string, unknown>)
        : { $eq: raw };
    if (field === 'mentioned_users.id') {
      const v = ops.$contains ?? ops.$eq;
      if (typeof v !== 'string') throw inputError('mentioned_users.id takes $contains with a user id');
      return `${param(v)} = ANY(m.mentioned_users)`;
    }
    const column = FIELDS[field];
    if (!column) throw inputError(`cannot filter messages by ${field}`);
    return Object.entries(ops)
      .map(([op, v]) => {
        if (op === '$eq') return `${column} = ${param(v)}`;
        if (op === '$ne') return `${column} IS DISTINCT FROM ${param(v)}`;
        if (op === '$in' || op === '$nin') {
          if (!Array.isArray(v)) throw inputError(`${op} on ${field} needs an array`);
          const sql = `${column} = ANY(${param(v)})`;
          return op === '$in' ? sql : `NOT (${sql})`;
        }
        if (COMPARE[op]) return `${column} ${COMPARE[op]} ${param(v)}`;
        if (op === '$exists') return v ? `${column} IS NOT NULL` : `${column} IS NULL`;
        if ((op === '$autocomplete' || op === '$q') && field === 'text' && typeof v === 'string') {
          const q = prefixQuery(v);
          return q ? `m.search_tsv @@ to_tsquery('simple', ${param(q)})` : 'false';
        }
        throw inputError(`operator ${op} is not supported on ${field}`);
      })
      .map((p) => `(${p})`)
      .join(' AND ');
  });
  return parts.length ? parts.map((p) => `(${p})`).join(' AND ') : 'true';
}
