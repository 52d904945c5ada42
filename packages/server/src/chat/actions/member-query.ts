import type { ChannelMember } from '@caseroom/protocol';
import type { z } from 'zod';
import type { QueryMembersPayload } from '@caseroom/protocol';
import type { Actor, ChatContext } from '../context.js';
import { inputError } from '../errors.js';
import { channelForActor } from '../policy/channel-access.js';
import { presentMember } from '../presenters/channel.js';
import { onlineSql } from '../realtime/presence.js';
import type { MemberRow, UserRow } from '../store/rows.js';
import { MEMBER_COLUMNS } from '../store/channels.js';
import { checkRefShape } from '../policy/channel-types.js';

type Payload = z.infer<typeof QueryMembersPayload>;

const SORT_COLUMNS: Record<string, string> = {
  name: 'lower(u.name)',
  user_id: 'm.user_id',
  created_at: 'm.created_at',
  updated_at: 'm.updated_at',
  channel_role: 'm.channel_role',
};

const likePrefix = (v: string) => v.replace(/[\\%_]/g, (m) => `\\${m}`);

/** Operators of one field as a map (`"x"` alone means `{$eq: "x"}`). */
function operators(field: string, condition: unknown): Array<[string, unknown]> {
  if (condition !== null && typeof condition === 'object' && !Array.isArray(condition)) {
    return Object.entries(condition);
  }
  if (field === '$and' || field === '$or') throw inputError(`${field} is not supported on members`);
  return [['$eq', condition]];
}

/**
 * `GET /chat/members`: members of one channel the caller may read (code 17 otherwise). Filters: `name`
 * ($eq, $autocomplete), `id`/`user_id` ($eq, $in), `banned`, `invite` (pending, accepted, rejected),
 * `channel_role` ($eq, $in); sorted by `created_at` (oldest first) unless asked otherwise; limit 100, offset.
 */
export async function queryMembers(ctx: ChatContext, actor: Actor, query: Payload): Promise<ChannelMember[]> {
  checkRefShape(query.type, query.id);
  const cid = `${query.type}:${query.id}`;
  await channelForActor(ctx.db, actor, cid);
  const params: unknown[] = [cid];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = ['m.cid = $1'];
  for (const [field, condition] of Object.entries(query.filter_conditions ?? {})) {
    for (const [op, value] of operators(field, condition)) {
      const bad = () => inputError(`operator ${op} is not supported on members.${field}`);
      if (field === 'name') {
        if (op === '$eq') where.push(`u.name = ${p(String(value))}`);
        else if (op === '$autocomplete' && typeof value === 'string') {
          const like = likePrefix(value);
          where.push(`(u.name ILIKE ${p(`${like}%`)} OR u.name ILIKE ${p(`% ${like}%`)})`);
        } else throw bad();
      } else if (field === 'id' || field === 'user_id' || field === 'channel_role') {
        const column = field === 'channel_role' ? 'm.channel_role' : 'm.user_id';
        if (op === '$eq') where.push(`${column} = ${p(String(value))}`);
        else if (op === '$in' && Array.isArray(value)) where.push(`${column} = ANY(${p(value.map(String))})`);
        else throw bad();
      } else if (field === 'banned' && op === '$eq' && typeof value === 'boolean') {
        where.push(`m.banned = ${p(value)}`);
      } else if (field === 'invite' && op === '$eq') {
        if (value === 'pending')
          where.push('m.invited AND m.invite_accepted_at IS NULL AND m.invite_rejected_at IS NULL');
        else if (value === 'accepted') where.push('m.invited AND m.invite_accepted_at IS NOT NULL');
        else if (value === 'rejected') where.push('m.invited AND m.invite_rejected_at IS NOT NULL');
        else throw inputError('invite must be pending, accepted or rejected');
      } else throw bad();
    }
  }
  const order = (query.sort?.length ? query.sort : [{ field: 'created_at' as const, direction: 1 as const }])
    .map(
      (s) => `${SORT_COLUMNS[s.field] ?? 'm.created_at'} ${s.direction === -1 ? 'DESC' : 'ASC'} NULLS LAST`,
    )
    .concat('m.user_id ASC');
  const { rows } = await ctx.db.query<MemberRow & { user: UserRow }>(
    `SELECT ${MEMBER_COLUMNS}, to_jsonb(u) || jsonb_build_object('online', ${onlineSql('u')}) AS "user"
       FROM chat_members m JOIN chat_users u ON u.id = m.user_id
      WHERE ${where.join(' AND ')}
      ORDER BY ${order.join(', ')} LIMIT ${p(query.limit ?? 100)} OFFSET ${p(query.offset ?? 0)}`,
    params,
  );
  return rows.map((r) => presentMember(r, r.user));
}
