import type { Capability } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor } from '../context.js';
import { notAllowed, notFound } from '../errors.js';
import { getChannel, getMember, lockChannelFor, type LockedChannel } from '../store/channels.js';
import type { ChannelRow, UserRow } from '../store/rows.js';
import { loadRules, presentRule } from '../store/policy.js';
import { getUser } from '../store/users.js';
import { canReadChannel, ownCapabilities, type ChannelViewer } from './capabilities.js';

/** A channel as one actor may use it; `caps` undefined means the server (every right). */
export interface ChannelAccess {
  channel: ChannelRow;
  viewer: ChannelViewer | undefined;
  caps: ReadonlySet<Capability> | undefined;
}

export async function viewerOf(
  q: Queryable,
  actor: Actor,
  channel: Pick<ChannelRow, 'cid' | 'type'>,
): Promise<ChannelViewer | undefined> {
  if (actor.kind === 'server') return undefined;
  // One after the other: `q` may be a transaction's single connection.
  const user = await getUser(q, actor.userId);
  checkActive(actor.userId, user);
  const member = await getMember(q, channel.cid, actor.userId);
  const rules = await loadRules(q, [channel.type]);
  return { role: roleOf(actor, user), member, rules };
}

/** Throws 403 (code 17) when the user is deactivated or deleted. */
export function checkActive(userId: string, user: UserRow | undefined): void {
  if (user?.deactivated_at || user?.deleted_at) {
    throw notAllowed(`User "${userId}" is ${user.deleted_at ? 'deleted' : 'deactivated'}`);
  }
}

/** A user's global role; anonymous connections are always `anonymous`. */
export function roleOf(actor: Actor, user: { role: string } | undefined): string {
  if (actor.kind === 'user' && actor.anonymous) return 'anonymous';
  return user?.role ?? 'user';
}

/**
 * Loads a channel for an actor who must be able to read it: 404 (code 16) when missing, 403 (code 17) when
 * the actor is not a member. The one gate every channel endpoint and action goes through.
 */
export async function channelForActor(q: Queryable, actor: Actor, cid: string): Promise<ChannelAccess> {
  const channel = await getChannel(q, cid);
  if (!channel) throw notFound(`Channel "${cid}" does not exist`);
  return accessTo(q, actor, channel);
}

/**
 * {@link channelForActor} for a write that locks the channel (`FOR UPDATE`, for the rest of the transaction): the
 * channel, the actor's access and the users `userIds` (for presenting what is written) in one round trip. Same
 * answers as `channelForActor` followed by `lockChannel`.
 */
export async function lockedChannelForActor(
  q: Queryable,
  actor: Actor,
  cid: string,
  userIds: string[],
): Promise<ChannelAccess & Pick<LockedChannel, 'users' | 'audience' | 'now'>> {
  const viewerId = actor.kind === 'user' ? actor.userId : null;
  const locked = await lockChannelFor(q, cid, viewerId, viewerId ? [viewerId, ...userIds] : userIds);
  const { channel, users, audience, now } = locked;
  if (!channel) throw notFound(`Channel "${cid}" does not exist`);
  if (actor.kind === 'server') return { channel, viewer: undefined, caps: undefined, users, audience, now };
  const user = users.get(actor.userId);
  checkActive(actor.userId, user);
  const viewer = { role: roleOf(actor, user), member: locked.member, rules: locked.rules.map(presentRule) };
  return { ...checkedAccess(actor, channel, viewer), users, audience, now };
}

export async function accessTo(q: Queryable, actor: Actor, channel: ChannelRow): Promise<ChannelAccess> {
  const viewer = await viewerOf(q, actor, channel);
  if (!viewer) return { channel, viewer, caps: undefined };
  return checkedAccess(actor, channel, viewer);
}

/** Throws 403 (code 17) unless the viewer is a reader of channel `cid` (see `canReadChannel`). */
export function checkReadable(actor: Actor, cid: string, viewer: Pick<ChannelViewer, 'member'>): void {
  if (!canReadChannel(viewer)) {
    throw notAllowed(
      `User "${actor.kind === 'user' ? actor.userId : ''}" is not allowed to read channel "${cid}"`,
    );
  }
}

function checkedAccess(actor: Actor, channel: ChannelRow, viewer: ChannelViewer): ChannelAccess {
  checkReadable(actor, channel.cid, viewer);
  return { channel, viewer, caps: new Set(ownCapabilities(channel, viewer)) };
}

/** Throws 403 (code 17) unless the actor has the capability in this channel. */
export function requireCapability(access: ChannelAccess, cap: Capability, action: string): void {
  if (access.caps && !access.caps.has(cap)) {
    throw notAllowed(`You are not allowed to ${action} in channel "${access.channel.cid}" (needs ${cap})`);
  }
}

/** Administration (permissions, roles, channel types, batch reads of other users) is for the server and global admins. */
export async function requireAdmin(q: Queryable, actor: Actor, action: string): Promise<void> {
  if (actor.kind === 'server') return;
  const user = actor.anonymous ? undefined : await getUser(q, actor.userId);
  if (user?.role !== 'admin') throw notAllowed(`only the server or an admin may ${action}`);
}
