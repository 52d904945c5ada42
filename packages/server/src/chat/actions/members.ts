import type { ChannelMember } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed, notFound } from '../errors.js';
import { channelForActor, requireCapability } from '../policy/channel-access.js';
import { presentChannel, presentMember, presentOwnMember } from '../presenters/channel.js';
import { lockSeq, write, type Outbox } from '../realtime/outbox.js';
import { getChannel, getMember, memberIds } from '../store/channels.js';
import { getRole } from '../store/policy.js';
import type { ChannelRow } from '../store/rows.js';
import { getUsers } from '../store/users.js';
import { channelIds } from '../views/messages.js';

/** Stages `member.updated` for the channel's readers (plus the member, who may not be a reader yet). */
async function stageMemberUpdated(q: Queryable, out: Outbox, channel: ChannelRow, userId: string) {
  const member = await getMember(q, channel.cid, userId);
  if (!member) return undefined;
  const presented = presentMember(member, (await getUsers(q, [userId])).get(userId));
  const audience = [...new Set([...(await memberIds(q, channel.cid)), userId])];
  out.channelEvent(audience, {
    type: 'member.updated',
    ...channelIds(channel),
    member: presented,
    created_at: new Date().toISOString(),
  });
  return presented;
}

/** `invites` of `POST /chat/channels/{type}/{id}`: pending members, told by `notification.invited`. */
export async function inviteMembers(ctx: ChatContext, actor: Actor, cid: string, userIds: string[]) {
  await write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    requireCapability(access, 'update-channel-members', 'invite members');
    await lockSeq(q, out, cid);
    const ids = [...new Set(userIds)];
    const known = await getUsers(q, ids);
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length) throw inputError(`users ${missing.join(', ')} don't exist`);
    for (const id of ids) {
      const r = await q.query(
        `INSERT INTO chat_members (cid, user_id, invited, unread_seq)
         VALUES ($1, $2, true, (SELECT unread_seq FROM chat_channels WHERE cid = $1)) ON CONFLICT DO NOTHING`,
        [cid, id],
      );
      if (r.rowCount === 0) continue;
      const member = await getMember(q, cid, id);
      out.notify(id, {
        type: 'notification.invited',
        ...channelIds(access.channel),
        channel: presentChannel(access.channel, undefined),
        ...(member ? { member: presentMember(member, known.get(id)) } : {}),
        created_at: new Date().toISOString(),
      });
    }
  });
}

/**
 * `accept_invite` / `reject_invite`: the invitee answers a pending invite. Accepting makes them a reader; both
 * emit `notification.invite_accepted` / `notification.invite_rejected` to the invitee and `member.updated`.
 */
export async function answerInvite(ctx: ChatContext, actor: Actor, cid: string, accept: boolean) {
  if (actor.kind !== 'user' || actor.anonymous) throw notAllowed('invites are answered by the invitee');
  const userId = actor.userId;
  await write(ctx, async (q, out) => {
    const channel = await getChannel(q, cid);
    const member = channel ? await getMember(q, cid, userId) : undefined;
    if (!channel || !member?.invited) throw notFound(`no invite for user "${userId}" to channel "${cid}"`);
    if (member.invite_accepted_at || member.invite_rejected_at) {
      throw inputError('the invite was already answered');
    }
    await lockSeq(q, out, cid);
    await q.query(
      `UPDATE chat_members SET ${accept ? 'invite_accepted_at' : 'invite_rejected_at'} = now(),
              last_read = now(), updated_at = now()
        WHERE cid = $1 AND user_id = $2`,
      [cid, userId],
    );
    const presented = await stageMemberUpdated(q, out, channel, userId);
    out.notify(userId, {
      type: accept ? 'notification.invite_accepted' : 'notification.invite_rejected',
      ...channelIds(channel),
      channel: presentChannel(channel, undefined),
      ...(presented ? { member: presented } : {}),
      created_at: new Date().toISOString(),
    });
  });
}

/** `add_moderators`, `demote_moderators` and `assign_roles`: sets members' channel roles (existing channel roles). */
export async function assignRoles(
  ctx: ChatContext,
  actor: Actor,
  cid: string,
  roles: Array<{ user_id: string; channel_role: string }>,
) {
  await write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    requireCapability(access, 'update-channel-members', 'change member roles');
    await lockSeq(q, out, cid);
    for (const { user_id, channel_role } of roles) {
      const role = await getRole(q, channel_role);
      if (role?.scope !== 'channel') throw inputError(`"${channel_role}" is not a channel role`);
      if (channel_role === 'owner' && actor.kind !== 'server') {
        throw notAllowed('only the server may make a member the owner');
      }
      const r = await q.query(
        'UPDATE chat_members SET channel_role = $3, updated_at = now() WHERE cid = $1 AND user_id = $2',
        [cid, user_id, channel_role],
      );
      if (r.rowCount === 0) throw notFound(`user "${user_id}" is not a member of "${cid}"`);
      await stageMemberUpdated(q, out, access.channel, user_id);
    }
  });
}

/**
 * `PATCH /chat/channels/{type}/{id}/member/{userId}`: the member's own list state, `pinned` and `archived`
 * (set true/false or unset). Only the member (or the server) changes it; `member.updated` goes to them alone.
 */
export async function updateMemberPartial(
  ctx: ChatContext,
  actor: Actor,
  cid: string,
  userId: string,
  set: Record<string, unknown>,
  unset: string[],
): Promise<ChannelMember> {
  if (actor.kind === 'user' && actor.userId !== userId)
    throw notAllowed('a user may only change their own membership');
  for (const k of [...Object.keys(set), ...unset]) {
    if (k !== 'pinned' && k !== 'archived') throw inputError(`field "${k}" cannot be set on a member`);
  }
  for (const [k, v] of Object.entries(set))
    if (typeof v !== 'boolean') throw inputError(`${k} must be true or false`);
  const value = (k: 'pinned' | 'archived') =>
    k in set ? set[k] === true : unset.includes(k) ? false : undefined;
  return write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    const columns: string[] = [];
    for (const k of ['pinned', 'archived'] as const) {
      const v = value(k);
      if (v !== undefined) columns.push(`${k}_at = ${v ? `coalesce(${k}_at, now())` : 'NULL'}`);
    }
    if (columns.length > 0) {
      const r = await q.query(
        `UPDATE chat_members SET ${columns.join(', ')}, updated_at = now() WHERE cid = $1 AND user_id = $2`,
        [cid, userId],
      );
      if (r.rowCount === 0) throw notFound(`user "${userId}" is not a member of "${cid}"`);
    }
    const member = await getMember(q, cid, userId);
    if (!member) throw notFound(`user "${userId}" is not a member of "${cid}"`);
    const presented = presentOwnMember(member, (await getUsers(q, [userId])).get(userId));
    out.notify(userId, {
      type: 'member.updated',
      ...channelIds(access.channel),
      member: presented,
      created_at: presented.updated_at,
    });
    return presented;
  });
}

/**
 * `POST /chat/moderation/mute/channel` and `.../unmute/channel`: the user's own mute of channels, optionally for
 * `expiration` ms. Muted channels keep their unread counts but leave the user's totals.
 */
export async function muteChannels(
  ctx: ChatContext,
  actor: Actor,
  cids: string[],
  mute: boolean,
  expirationMs?: number,
) {
  if (actor.kind !== 'user' || actor.anonymous) throw notAllowed('mutes belong to a user; use a user token');
  const userId = actor.userId;
  return write(ctx, async (q, out) => {
    const mutes = [];
    for (const cid of new Set(cids)) {
      const access = await channelForActor(q, actor, cid);
      requireCapability(access, 'mute-channel', 'mute the channel');
      const expires = mute && expirationMs ? new Date(Date.now() + expirationMs) : null;
      await q.query(
        `UPDATE chat_members SET muted = $3, mute_expires = $4, updated_at = now() WHERE cid = $1 AND user_id = $2`,
        [cid, userId, mute, expires],
      );
      mutes.push({
        user: { id: userId },
        channel: presentChannel(access.channel, undefined),
        created_at: new Date().toISOString(),
        ...(expires ? { expires: expires.toISOString() } : {}),
      });
    }
    const { rows } = await q.query<{ cid: string; mute_expires: Date | null }>(
      `SELECT cid, mute_expires FROM chat_members WHERE user_id = $1 AND muted
          AND (mute_expires IS NULL OR mute_expires > now())`,
      [userId],
    );
    const channel_mutes = rows.map((r) => ({
      cid: r.cid,
      ...(r.mute_expires ? { expires: r.mute_expires.toISOString() } : {}),
    }));
    out.notify(userId, {
      type: 'notification.channel_mutes_updated',
      me: { id: userId, channel_mutes },
      created_at: new Date().toISOString(),
    });
    return { channel_mutes: mutes, own_user: { id: userId, channel_mutes } };
  });
}
