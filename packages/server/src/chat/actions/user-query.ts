import type { ChatUser } from '@caseroom/protocol';
import type { Actor, ChatContext } from '../context.js';
import { inputError } from '../errors.js';
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
  for (const [field, raw] of Object.entries(query.filter_conditions ?? {})) {
    const ops = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : { $eq: raw };
    const column =
      field === 'id' ? 'u.id' : field === 'name' ? 'u.name' : field === 'role' ? 'u.role' : undefined;
    if (!column) throw inputError(`cannot filter users by ${field}`);
    for (const [op, value] of Object.entries(ops)) {
      if (op === '$eq') where.push(`${column} = ${p(String(value))}`);
      else if (op === '$in' && Array.isArray(value)) where.push(`${column} = ANY(${p(value.map(String))})`);
      else if (op === '$autocomplete' && typeof value === 'string') {
        const like = value.replace(/[\\%_]/g, (m) => `\\${m}`);
        where.push(
          `(u.name ILIKE ${p(`${like}%`)} OR u.name ILIKE ${p(`% ${like}%`)} OR u.id ILIKE ${p(`${like}%`)})`,
        );
      } else throw inputError(`operator ${op} is not supported on users.${field}`);
    }
  }
  const order = (query.sort?.length ? query.sort : [{ field: 'name', direction: 1 as const }]).map((s) => {
    const column = {
      name: 'lower(u.name)',
      id: 'u.id',
      created_at: 'u.created_at',
      last_active: 'u.last_active',
    }[s.field];
    if (!column) throw inputError(`cannot sort users by ${s.field}`);
    return `${column} ${s.direction === -1 ? 'DESC' : 'ASC'} NULLS LAST`;
  });
  const { rows } = await ctx.db.query<UserRow>(
    `SELECT u.*, ${onlineSql('u')} AS online FROM chat_users u WHERE ${where.join(' AND ')} ORDER BY ${[...order, 'u.id'].join(', ')}
      LIMIT ${p(Math.min(query.limit ?? 30, 100))} OFFSET ${p(query.offset ?? 0)}`,
    params,
  );
  return rows.map(presentUser);
}
