import type { Capability } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor } from '../context.js';
import { notAllowed, notFound } from '../errors.js';
import { getChannel, getMember } from '../store/channels.js';
import type { ChannelRow } from '../store/rows.js';
import { getUser } from '../store/users.js';
import { canReadChannel, ownCapabilities, type ChannelViewer } from './capabilities.js';

/** A channel as one actor may use it; `caps` undefined means the server (every right). */
export interface ChannelAccess {
  channel: ChannelRow;
  viewer: ChannelViewer | undefined;
  caps: ReadonlySet<Capability> | undefined;
}

export async function viewerOf(q: Queryable, actor: Actor, cid: string): Promise<ChannelViewer | undefined> {
  if (actor.kind === 'server') return undefined;
  const [user, member] = await Promise.all([getUser(q, actor.userId), getMember(q, cid, actor.userId)]);
  return { role: user?.role ?? 'user', member };
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

export async function accessTo(q: Queryable, actor: Actor, channel: ChannelRow): Promise<ChannelAccess> {
  const viewer = await viewerOf(q, actor, channel.cid);
  if (!viewer) return { channel, viewer, caps: undefined };
  if (!canReadChannel(viewer)) {
    throw notAllowed(
      `User "${actor.kind === 'user' ? actor.userId : ''}" is not allowed to read channel "${channel.cid}"`,
    );
  }
  return { channel, viewer, caps: new Set(ownCapabilities(channel, viewer)) };
}

/** Throws 403 (code 17) unless the actor has the capability in this channel. */
export function requireCapability(access: ChannelAccess, cap: Capability, action: string): void {
  if (access.caps && !access.caps.has(cap)) {
    throw notAllowed(`You are not allowed to ${action} in channel "${access.channel.cid}" (needs ${cap})`);
  }
}
