import type { ChatUser } from '@caseroom/protocol';
import type { Actor, ChatContext } from '../context.js';
import {
  columnField,
  compileFilter,
  likeEscape,
  sortSql,
  type FieldRule,
  type FilterSpec,
} from '../store/filter.js';
import { presentUser } from '../presenters/user.js';
import { seesUserSql } from '../policy/read-access.js';
import { onlineSql } from '../realtime/presence.js';
import type { UserRow } from '../store/rows.js';

export interface UserQuery {
  filter_conditions?: Record<string, unknown>;
  sort?: Array<{ field: string; direction: 1 | -1 }>;
  limit?: number;
  offset?: number;
}

/** `id`, `name`, `role`: $eq, $in, and $autocomplete (on the name, or the id's start). */
const field = (sql: string): FieldRule => ({
  ...columnField(sql, 'text', ['$eq', '$in', '$autocomplete']),
  build(op, value, p) {
    if (op !== '$autocomplete') return columnField(sql, 'text').build(op, value, p);
    const like = likeEscape(value as string);
    return `(u.name ILIKE ${p(`${like}%`)} OR u.name ILIKE ${p(`% ${like}%`)} OR u.id ILIKE ${p(`${like}%`)})`;
  },
});

const SPEC: FilterSpec = {
  what: 'users',
  logical: new Set(),
  fields: new Map([
    ['id', field('u.id')],
    ['name', field('u.name')],
    ['role', field('u.role')],
  ]),
};

const SORT_COLUMNS = new Map([
  ['name', 'lower(u.name)'],
  ['id', 'u.id'],
  ['created_at', 'u.created_at'],
  ['last_active', 'u.last_active'],
]);

/**
 * `GET /chat/users`: by `id` ($eq/$in) or `name` ($eq/$autocomplete), sorted by name then id. A user sees
 * themselves and the members of the channels they read (policy/read-access `seesUserSql`); the server sees everyone.
 */
export async function queryUsers(ctx: ChatContext, actor: Actor, query: UserQuery): Promise<ChatUser[]> {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = ['u.deleted_at IS NULL'];
  if (actor.kind === 'user') {
    where.push(seesUserSql(p(actor.userId), 'u.id'));
  }
  where.push(compileFilter(SPEC, query.filter_conditions, p));
  const order = sortSql(
    'users',
    SORT_COLUMNS,
    query.sort?.length ? query.sort : [{ field: 'name', direction: 1 }],
  );
  const { rows } = await ctx.db.query<UserRow>(
    `SELECT u.*, ${onlineSql('u')} AS online FROM chat_users u WHERE ${where.join(' AND ')} ORDER BY ${[...order, 'u.id'].join(', ')}
      LIMIT ${p(Math.min(query.limit ?? 30, 100))} OFFSET ${p(query.offset ?? 0)}`,
    params,
  );
  return rows.map(presentUser);
}
