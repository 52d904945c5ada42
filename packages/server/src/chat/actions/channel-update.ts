import type { Channel } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { checkProtectedFields } from './channel-create.js';
import { checkCustomSize, mergedCustom } from './custom.js';
import type { Actor, ChatContext } from '../context.js';
import { inputError } from '../errors.js';
import { channelForActor, requireCapability, type ChannelAccess } from '../policy/channel-access.js';
import { presentChannel, presentMember } from '../presenters/channel.js';
import { lockSeq, write, type Outbox } from '../realtime/outbox.js';
import { getChannel, getMember, MEMBER_COLUMNS, memberIds, readerSql } from '../store/channels.js';
import type { ChannelRow, MemberRow } from '../store/rows.js';
import { ownCapabilities } from '../policy/capabilities.js';
import { loadRules } from '../store/policy.js';
import { getUsers } from '../store/users.js';

/** Fields a partial update may set as columns; anything else not reserved is custom data. */
const COLUMN_FIELDS = new Set(['name', 'team', 'frozen', 'cooldown', 'disabled']);
const IMMUTABLE = new Set([
  'id',
  'type',
  'cid',
  'created_by',
  'created_by_id',
  'created_at',
  'updated_at',
  'last_message_at',
  'member_count',
  'members',
  'config',
  'own_capabilities',
  'truncated_at',
  'deleted_at',
  'member_hash',
]);

function checkPartial(
  access: ChannelAccess,
  actor: Actor,
  set: Record<string, unknown>,
  unset: string[],
  protectedFields: ReadonlySet<string>,
) {
  for (const key of [...Object.keys(set), ...unset]) {
    if (IMMUTABLE.has(key)) throw inputError(`field "${key}" cannot be updated`);
  }
  checkProtectedFields(actor, [...Object.keys(set), ...unset], protectedFields);
  requireCapability(access, 'update-channel', 'update the channel');
  if ('frozen' in set || unset.includes('frozen'))
    requireCapability(access, 'freeze-channel', 'freeze the channel');
  if ('cooldown' in set) requireCapability(access, 'set-channel-cooldown', 'set slow mode');
  if ('frozen' in set && typeof set.frozen !== 'boolean') throw inputError('frozen must be true or false');
  if ('disabled' in set && typeof set.disabled !== 'boolean')
    throw inputError('disabled must be true or false');
  if ('cooldown' in set) {
    const c = set.cooldown;
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 0 || c > 120) {
      throw inputError('cooldown must be a whole number of seconds from 0 to 120');
    }
  }
  for (const k of ['name', 'team']) {
    if (k in set && set[k] !== null && typeof set[k] !== 'string') throw inputError(`${k} must be a string`);
  }
}

/** `PATCH /chat/channels/{type}/{id}` and the server API: sets and unsets channel fields; emits `channel.updated`. */
export async function updateChannelPartial(
  ctx: ChatContext,
  actor: Actor,
  cid: string,
  set: Record<string, unknown>,
  unset: string[] = [],
): Promise<Channel> {
  return write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    checkPartial(access, actor, set, unset, ctx.protectedChannelFields);
    await lockSeq(q, out, cid);
    const columns: string[] = [];
    const params: unknown[] = [cid];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    for (const [k, v] of Object.entries(set)) if (COLUMN_FIELDS.has(k)) columns.push(`${k} = ${p(v)}`);
    for (const k of unset) {
      if (k === 'name' || k === 'team') columns.push(`${k} = NULL`);
      if (k === 'frozen' || k === 'disabled') columns.push(`${k} = false`);
      if (k === 'cooldown') columns.push('cooldown = 0');
    }
    const customSet = Object.fromEntries(Object.entries(set).filter(([k]) => !COLUMN_FIELDS.has(k)));
    const customUnset = unset.filter((k) => !COLUMN_FIELDS.has(k));
    checkCustomSize('channel', mergedCustom(access.channel.custom, customSet, customUnset));
    await q.query(
      `UPDATE chat_channels SET ${[...columns, ''].join(', ')}
         custom = (custom || ${p(JSON.stringify(customSet))}::jsonb) - ${p(customUnset)}::text[],
         updated_at = now()
       WHERE cid = $1`,
      params,
    );
    const channel = await getChannel(q, cid);
    if (!channel) throw inputError(`channel ${cid} vanished`);
    const presented = presentChannel(channel, undefined);
    out.channelEvent(await memberIds(q, cid), {
      type: 'channel.updated',
      cid,
      channel_id: channel.id,
      channel_type: channel.type,
      channel: presented,
      created_at: presented.updated_at,
    });
    if (['frozen', 'cooldown'].some((k) => k in set || unset.includes(k))) {
      await stageCapabilitiesChanged(q, out, channel);
    }
    return presented;
  });
}

/** Capabilities are per viewer: each member's connections get their own list (chat-spec §4 capabilities changed). */
async function stageCapabilitiesChanged(q: Queryable, out: Outbox, channel: ChannelRow): Promise<void> {
  const { rows } = await q.query<MemberRow & { role: string }>(
    `SELECT ${MEMBER_COLUMNS}, u.role FROM chat_members m JOIN chat_users u ON u.id = m.user_id
      WHERE m.cid = $1 AND ${readerSql('m')}`,
    [channel.cid],
  );
  const now = new Date().toISOString();
  const rules = await loadRules(q, [channel.type]);
  for (const m of rows) {
    out.transient({
      users: [m.user_id],
      event: {
        type: 'capabilities.changed',
        cid: channel.cid,
        channel_id: channel.id,
        channel_type: channel.type,
        own_capabilities: ownCapabilities(channel, { role: m.role, member: m, rules }),
        created_at: now,
      },
    });
  }
}

async function stageMemberEvent(
  q: Queryable,
  out: Outbox,
  cid: string,
  userId: string,
  kind: 'added' | 'removed',
  audience: string[],
) {
  const channel = await getChannel(q, cid);
  const member = await getMember(q, cid, userId);
  const users = await getUsers(q, [userId]);
  // Removals are staged before the row goes: the member is there in both cases.
  if (!channel || !member) return;
  const now = new Date().toISOString();
  const ids = { cid, channel_id: channel.id, channel_type: channel.type };
  const user = users.get(userId);
  const memberOut = presentMember(member, user);
  const type = kind === 'added' ? 'member.added' : 'member.removed';
  out.channelEvent(audience, { type, ...ids, member: memberOut, created_at: now });
  out.notify(userId, {
    type: kind === 'added' ? 'notification.added_to_channel' : 'notification.removed_from_channel',
    ...ids,
    channel: presentChannel(channel, undefined),
    member: memberOut,
    created_at: now,
  });
}

/** Adds members (who must be chat users); emits `member.added` and `notification.added_to_channel`. */
export async function addMembers(
  ctx: ChatContext,
  actor: Actor,
  cid: string,
  userIds: string[],
): Promise<void> {
  await write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    requireCapability(access, 'update-channel-members', 'add members');
    await lockSeq(q, out, cid);
    const ids = [...new Set(userIds)];
    const known = await getUsers(q, ids);
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length) throw inputError(`users ${missing.join(', ')} don't exist`);
    const added: string[] = [];
    for (const id of ids) {
      // Adding a pending invitee makes them a full member.
      const r = await q.query(
        `INSERT INTO chat_members (cid, user_id, unread_seq) VALUES ($1, $2, (SELECT unread_seq FROM chat_channels WHERE cid = $1))
         ON CONFLICT (cid, user_id) DO UPDATE SET invited = false, invite_rejected_at = NULL, updated_at = now()
           WHERE chat_members.invited AND chat_members.invite_accepted_at IS NULL`,
        [cid, id],
      );
      if (r.rowCount > 0) added.push(id);
    }
    const audience = await memberIds(q, cid);
    for (const id of added) await stageMemberEvent(q, out, cid, id, 'added', audience);
  });
}

/** Removes members (a user may always remove themselves); emits `member.removed` and the notification. */
export async function removeMembers(
  ctx: ChatContext,
  actor: Actor,
  cid: string,
  userIds: string[],
): Promise<void> {
  await write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    const self = actor.kind === 'user' && userIds.every((id) => id === actor.userId);
    if (self) requireCapability(access, 'leave-channel', 'leave the channel');
    else requireCapability(access, 'update-channel-members', 'remove members');
    await lockSeq(q, out, cid);
    const audience = await memberIds(q, cid);
    for (const id of new Set(userIds)) {
      // Any member row goes, pending invites included (removing one cancels the invite).
      if (!(await getMember(q, cid, id))) continue;
      await stageMemberEvent(q, out, cid, id, 'removed', audience);
      await q.query('DELETE FROM chat_members WHERE cid = $1 AND user_id = $2', [cid, id]);
    }
  });
  // A removed member's sockets stop watching the channel.
  for (const conn of ctx.realtime.connections.all()) {
    if (userIds.includes(conn.userId)) conn.watching.delete(cid);
  }
}
