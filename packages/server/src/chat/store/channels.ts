import { prepared, type Queryable } from '../../platform/db.js';
import { channelReadableSql, isChannelReadable, readerSql } from '../policy/read-access.js';
import { onlineSql } from '../realtime/presence.js';
import type { ChannelRow, MemberRow, PermissionRow, UserRow } from './rows.js';

/** The read rule's member condition lives in `policy/read-access`; re-exported for the stores and actions. */
export { readerSql };

/** Channel columns plus the computed member count, for `FROM chat_channels c`. */
export const CHANNEL_COLUMNS = `c.*, (SELECT count(*) FROM chat_members mc WHERE mc.cid = c.cid)::int AS member_count,
  coalesce((SELECT t.config FROM chat_channel_types t WHERE t.name = c.type), '{}'::jsonb) AS config,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('name', k.name, 'args', k.args, 'description', k.description,
     'set', k."set") ORDER BY k.name), '[]'::jsonb) FROM chat_commands k) AS commands`;

export async function getChannel(q: Queryable, cid: string): Promise<ChannelRow | undefined> {
  const { rows } = await q.query<ChannelRow>(
    `SELECT ${CHANNEL_COLUMNS} FROM chat_channels c WHERE c.cid = $1 AND ${channelReadableSql('c')}`,
    [cid],
  );
  return rows[0];
}

/** The member row (with its unread count) of user `userId` in channel `c`, as one jsonb value. */
function memberJsonSql(userId: string): string {
  return `(SELECT to_jsonb(m) || jsonb_build_object('unread_count', ${unreadSql('m')}::int)
          FROM chat_members m WHERE m.cid = c.cid AND m.user_id = ${userId})`;
}

/** The permission rules in force in channel `c` (as `store/policy` `loadRules` orders them), as a jsonb array. */
const RULES_JSON_SQL = `(SELECT coalesce(jsonb_agg(to_jsonb(p) ORDER BY p.priority DESC, p.id), '[]'::jsonb)
          FROM chat_permissions p WHERE p.channel_type IS NULL OR p.channel_type = c.type)`;

/**
 * The channel reads of a channel query and its state, prepared (parsed and planned once per connection): a watch
 * or reconnect runs them for every client, and their planning was most of their database time.
 */
const readChannelWithViewer = prepared(
  'channel_with_viewer',
  ['text', 'text'],
  () => `SELECT ${CHANNEL_COLUMNS},
       ${memberJsonSql('$2')} AS viewer_member,
       (SELECT to_jsonb(u) || jsonb_build_object('online', ${onlineSql('u')})
          FROM chat_users u WHERE u.id = $2) AS viewer_user,
       ${RULES_JSON_SQL} AS viewer_rules
       FROM chat_channels c WHERE c.cid = $1 AND ${channelReadableSql('c')}`,
);
const readMemberships = prepared(
  'memberships',
  ['text[]', 'text'],
  () => `SELECT ${MEMBER_COLUMNS} FROM chat_members m WHERE m.cid = ANY($1) AND m.user_id = $2`,
);
// The user as `to_json` (cheaper to build than `to_jsonb` and a merged object) with `online` beside it; the unread
// count from the joined channel row rather than a lookup per member. A 100-member list costs the database about a
// fifth less.
const readMembers = prepared(
  'list_members',
  ['text[]', 'int', 'int'],
  () => `SELECT * FROM (
       SELECT m.*, (m.unread_base + c.unread_seq - m.unread_seq)::int AS unread_count, to_json(u) AS "user",
              ${onlineSql('u')} AS user_online,
              row_number() OVER (PARTITION BY m.cid ORDER BY m.created_at, m.user_id) AS rn
         FROM chat_members m JOIN chat_channels c ON c.cid = m.cid JOIN chat_users u ON u.id = m.user_id
        WHERE m.cid = ANY($1)
     ) t WHERE rn > $2 AND rn <= $2 + $3 ORDER BY cid, rn`,
);

/**
 * {@link getChannel} plus, in the same round trip, one user's member row and user row (with `online`) and the
 * permission rules in force in channels of its type (as `store/policy` `loadRules` reads them).
 */
export async function getChannelWithViewer(
  q: Queryable,
  cid: string,
  userId: string,
): Promise<
  | { channel: ChannelRow; member: MemberRow | undefined; user: UserRow | undefined; rules: PermissionRow[] }
  | undefined
> {
  const { rows } = await q.query<
    ChannelRow & {
      viewer_member: MemberRow | null;
      viewer_user: UserRow | null;
      viewer_rules: PermissionRow[];
    }
  >(readChannelWithViewer([cid, userId]));
  const row = rows[0];
  if (!row) return undefined;
  const { viewer_member, viewer_user, viewer_rules, ...channel } = row;
  return {
    channel,
    member: viewer_member ? withDates(viewer_member, MEMBER_DATES) : undefined,
    user: viewer_user ? withDates(viewer_user, USER_DATES) : undefined,
    rules: viewer_rules.map((r) => withDates(r, RULE_DATES)),
  };
}

/** Locks the channel row for the rest of the transaction (serialises writes that change its state). */
export async function lockChannel(q: Queryable, cid: string): Promise<ChannelRow | undefined> {
  // Locks and reads in one round trip; a deleted channel stays locked but reads as missing, as getChannel does.
  const { rows } = await q.query<ChannelRow>(
    `SELECT ${CHANNEL_COLUMNS} FROM chat_channels c WHERE c.cid = $1 FOR UPDATE OF c`,
    [cid],
  );
  const row = rows[0];
  return row && isChannelReadable(row) ? row : undefined;
}

/** Timestamps of rows read through `to_jsonb` (strings there) made Dates, as the columns would be. */
function withDates<T extends object>(row: T, keys: ReadonlyArray<keyof T>): T {
  const out = { ...row } as Record<keyof T, unknown>;
  for (const k of keys) if (typeof out[k] === 'string') out[k] = new Date(out[k]);
  return out as T;
}

const USER_DATES = ['last_active', 'deactivated_at', 'deleted_at', 'created_at', 'updated_at'] as const;
const MEMBER_DATES = [
  'invite_accepted_at',
  'invite_rejected_at',
  'last_read',
  'last_delivered_at',
  'mute_expires',
  'history_cleared_at',
  'pinned_at',
  'archived_at',
  'created_at',
  'updated_at',
] as const;
const RULE_DATES = ['created_at', 'updated_at'] as const;

/** What a write to a channel needs to know before it writes, read with the channel's lock. */
export interface LockedChannel {
  /** Undefined when the channel does not exist or is deleted. */
  channel: ChannelRow | undefined;
  /** The acting user's membership (undefined = not a member). */
  member: MemberRow | undefined;
  /** The permission rules in force in channels of its type, as `store/policy` `loadRules` reads them. */
  rules: PermissionRow[];
  /** The users asked for (with `online`), as `store/users` `getUsers` reads them. */
  users: Map<string, UserRow>;
  /** The channel's audience ({@link memberIds}), read once the lock is held. */
  audience: string[];
  /** The transaction's `now()`: what `DEFAULT now()` writes in this transaction. */
  now: Date;
}

/** The two statements of {@link lockChannelFor}, planned once per connection. */
const lockChannelRow = prepared(
  'lock_channel',
  ['text'],
  () => 'SELECT 1 FROM chat_channels WHERE cid = $1 FOR UPDATE',
);
const readLockedChannel = prepared(
  'read_locked_channel',
  ['text', 'text', 'text[]'],
  () => `SELECT ${CHANNEL_COLUMNS},
       ${memberJsonSql('$2')} AS lock_member,
       ${RULES_JSON_SQL} AS lock_rules,
       (SELECT coalesce(jsonb_agg(to_jsonb(u) || jsonb_build_object('online', ${onlineSql('u')})), '[]'::jsonb)
          FROM chat_users u WHERE u.id = ANY($3)) AS lock_users,
       ARRAY(SELECT a.user_id FROM chat_members a WHERE a.cid = c.cid AND ${readerSql('a')}) AS lock_audience,
       now() AS lock_now
       FROM chat_channels c WHERE c.cid = $1`,
);

/**
 * {@link lockChannel} plus, in the same round trip, the acting user's member row, the permission rules of the
 * channel's type, the users `userIds` (the writer and whoever the written message shows), the channel's audience
 * and the transaction's time.
 */
export async function lockChannelFor(
  q: Queryable,
  cid: string,
  memberId: string | null,
  userIds: string[],
): Promise<LockedChannel> {
  // No parameters: as a transaction's first statement it goes in one round trip with the BEGIN. Two prepared
  // statements (parsed and planned once per connection; generic plans for the rest of the transaction: the
  // planner would otherwise plan the read anew each time): the lock, then the reads, whose snapshot is taken
  // once the lock is held (READ COMMITTED).
  const { rows } = await q.query<
    ChannelRow & {
      lock_member: MemberRow | null;
      lock_rules: PermissionRow[];
      lock_users: UserRow[];
      lock_audience: string[];
      lock_now: Date;
    }
  >(
    `SET LOCAL plan_cache_mode = force_generic_plan;
     ${lockChannelRow([cid])};
     ${readLockedChannel([cid, memberId, [...new Set(userIds)]])}`,
  );
  const row = rows[0];
  if (!row)
    return {
      channel: undefined,
      member: undefined,
      rules: [],
      users: new Map(),
      audience: [],
      now: new Date(),
    };
  const { lock_member, lock_rules, lock_users, lock_audience, lock_now, ...channel } = row;
  return {
    channel: isChannelReadable(channel) ? channel : undefined,
    member: lock_member ? withDates(lock_member, MEMBER_DATES) : undefined,
    rules: lock_rules.map((r) => withDates(r, RULE_DATES)),
    users: new Map(lock_users.map((u) => [u.id, withDates(u, USER_DATES)])),
    audience: lock_audience,
    now: lock_now,
  };
}

/**
 * A member's unread count (member alias `m`), computed on read so that a send touches no member row: the count
 * when it was last set (`unread_base`) plus the channel's counted messages since (`chat_channels.unread_seq`).
 */
export function unreadSql(m: string): string {
  return `(${m}.unread_base + (SELECT uc.unread_seq FROM chat_channels uc WHERE uc.cid = ${m}.cid) - ${m}.unread_seq)`;
}

/** SET clause of an `UPDATE chat_members <m>` that makes the member's unread count `value` from now on. */
export function setUnreadSql(m: string, value: string): string {
  return `unread_base = ${value}, unread_seq = (SELECT uc.unread_seq FROM chat_channels uc WHERE uc.cid = ${m}.cid)`;
}

/** The columns of a member row (alias `m`), with its unread count. */
export const MEMBER_COLUMNS = `m.*, ${unreadSql('m')}::int AS unread_count`;

export async function getMember(q: Queryable, cid: string, userId: string): Promise<MemberRow | undefined> {
  const { rows } = await q.query<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM chat_members m WHERE m.cid = $1 AND m.user_id = $2`,
    [cid, userId],
  );
  return rows[0];
}

/** Member rows of several channels for one user (the viewer's membership in a channel list). */
export async function getMemberships(
  q: Queryable,
  cids: string[],
  userId: string,
): Promise<Map<string, MemberRow>> {
  const map = new Map<string, MemberRow>();
  if (cids.length === 0) return map;
  const { rows } = await q.query<MemberRow>(readMemberships([cids, userId]));
  for (const row of rows) map.set(row.cid, row);
  return map;
}

/**
 * The audience of a channel's events: members who may read it (not banned, not a pending or rejected invitee).
 * Every channel event goes to this list and nobody else (the one rule: `policy/read-access`).
 */
export async function memberIds(q: Queryable, cid: string): Promise<string[]> {
  const { rows } = await q.query<{ user_id: string }>(
    `SELECT user_id FROM chat_members WHERE cid = $1 AND ${readerSql()}`,
    [cid],
  );
  return rows.map((r) => r.user_id);
}

export type MemberWithUser = MemberRow & { user: UserRow };

/** Members of channels with their users, oldest first, at most `limit` per channel. */
export async function listMembers(
  q: Queryable,
  cids: string[],
  limit: number,
  offset = 0,
): Promise<Map<string, MemberWithUser[]>> {
  const map = new Map<string, MemberWithUser[]>();
  if (cids.length === 0 || limit === 0) return map;
  const { rows } = await q.query<MemberRow & { user: UserRow; user_online: boolean; rn: number }>(
    readMembers([cids, offset, limit]),
  );
  for (const row of rows) {
    row.user.online = row.user_online;
    const list = map.get(row.cid) ?? [];
    list.push(row);
    map.set(row.cid, list);
  }
  return map;
}
