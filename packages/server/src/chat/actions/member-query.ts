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
import {
  columnField,
  compileFilter,
  likeEscape,
  sortSql,
  type FieldRule,
  type FilterSpec,
} from '../store/filter.js';

type Payload = z.infer<typeof QueryMembersPayload>;

const SORT_COLUMNS = new Map([
  ['name', 'lower(u.name)'],
  ['user_id', 'm.user_id'],
  ['created_at', 'm.created_at'],
  ['updated_at', 'm.updated_at'],
  ['channel_role', 'm.channel_role'],
]);

const INVITE_STATES = new Map([
  ['pending', 'm.invited AND m.invite_accepted_at IS NULL AND m.invite_rejected_at IS NULL'],
  ['accepted', 'm.invited AND m.invite_accepted_at IS NOT NULL'],
  ['rejected', 'm.invited AND m.invite_rejected_at IS NOT NULL'],
]);

/** Member fields a query may filter by (the one filter validator, store/filter.ts, checks every condition). */
const SPEC: FilterSpec = {
  what: 'members',
  logical: new Set(),
  fields: new Map<string, FieldRule>([
    [
      'name',
      {
        ...columnField('u.name', 'text', ['$eq', '$autocomplete']),
        build(op, value, p) {
          if (op === '$eq') return `u.name = ${p(value)}`;
          const like = likeEscape(value as string);
          return `(u.name ILIKE ${p(`${like}%`)} OR u.name ILIKE ${p(`% ${like}%`)})`;
        },
      },
    ],
    ['id', columnField('m.user_id', 'text', ['$eq', '$in'])],
    ['user_id', columnField('m.user_id', 'text', ['$eq', '$in'])],
    ['channel_role', columnField('m.channel_role', 'text', ['$eq', '$in'])],
    ['banned', columnField('m.banned', 'boolean', ['$eq'])],
    [
      'invite',
      {
        kind: 'text',
        ops: new Set(['$eq']),
        build(_op, value) {
          const sql = INVITE_STATES.get(value as string);
          if (!sql) throw inputError('invite must be pending, accepted or rejected');
          return sql;
        },
      },
    ],
  ]),
};

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
  const where = ['m.cid = $1', compileFilter(SPEC, query.filter_conditions, p)];
  const sort = query.sort?.length ? query.sort : [{ field: 'created_at' as const, direction: 1 as const }];
  const order = sortSql('members', SORT_COLUMNS, sort).concat('m.user_id ASC');
  const { rows } = await ctx.db.query<MemberRow & { user: UserRow }>(
    `SELECT ${MEMBER_COLUMNS}, to_jsonb(u) || jsonb_build_object('online', ${onlineSql('u')}) AS "user"
       FROM chat_members m JOIN chat_users u ON u.id = m.user_id
      WHERE ${where.join(' AND ')}
      ORDER BY ${order.join(', ')} LIMIT ${p(query.limit ?? 100)} OFFSET ${p(query.offset ?? 0)}`,
    params,
  );
  return rows.map((r) => presentMember(r, r.user));
}
