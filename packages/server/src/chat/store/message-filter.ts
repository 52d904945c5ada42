import {
  COLUMN_OPS,
  columnField,
  compileFilter,
  type FieldRule,
  type FilterSpec,
  type Param,
} from './filter.js';

/** Words of a search string as a prefix tsquery (`care plan` -> `care:* & plan:*`); undefined when it has none. */
export function prefixQuery(text: string): string | undefined {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return words?.length ? words.map((w) => `${w}:*`).join(' & ') : undefined;
}

const text: FieldRule = {
  ...columnField('m.text', 'text', [...COLUMN_OPS, '$autocomplete', '$q']),
  build(op, value, p) {
    if (op !== '$autocomplete' && op !== '$q') return columnField('m.text', 'text').build(op, value, p);
    const q = prefixQuery(value as string);
    return q ? `m.search_tsv @@ to_tsquery('simple', ${p(q)})` : 'false';
  },
};

const mentioned: FieldRule = {
  kind: 'text',
  ops: new Set(['$contains', '$eq']),
  build: (_op, value, p) => `${p(value)} = ANY(m.mentioned_users)`,
};

/** Message fields `message_filter_conditions` of a search may use, and their SQL over `chat_messages m`. */
const SPEC: FilterSpec = {
  what: 'messages',
  logical: new Set(['$and', '$or']),
  fields: new Map([
    ['id', columnField('m.id', 'text')],
    ['text', text],
    ['type', columnField('m.type', 'text')],
    ['user_id', columnField('m.user_id', 'text')],
    ['user.id', columnField('m.user_id', 'text')],
    ['parent_id', columnField('m.parent_id', 'text')],
    ['created_at', columnField('m.created_at', 'date')],
    ['updated_at', columnField('m.updated_at', 'date')],
    ['pinned', columnField('m.pinned', 'boolean')],
    ['reply_count', columnField('m.reply_count', 'int')],
    ['silent', columnField('m.silent', 'boolean')],
    ['mentioned_users.id', mentioned],
  ]),
};

/**
 * Translates `message_filter_conditions` into SQL (values as parameters through `param`) with the one filter
 * validator. Operators: $eq $ne $in $nin $gt $gte $lt $lte $exists, `$autocomplete` and `$q` (full text) on
 * `text`, `$contains` on `mentioned_users.id`, and $and / $or.
 */
export function messageFilterSql(filter: Record<string, unknown>, param: Param): string {
  return compileFilter(SPEC, filter, param);
}
