import type { ChatEvent } from '@caseroom/protocol';
import { setHidden, type FakeMembershipHost } from './fake-channels.js';
import { presentChannel, presentViewerMember, type FakeChannelRecord } from './fake-data.js';

/** One user's own list state of a channel (the server's chat_members pinned_at, archived_at, muted). */
export interface FakeListState {
  pinned_at?: string;
  archived_at?: string;
  muted?: boolean;
  mute_expires?: string;
  /** The member row's `updated_at`: every change of the list state moves it, as on the server. */
  updated_at?: string;
}

/** The user's list state of a channel record (created empty on first use). */
export function listStateOf(record: FakeChannelRecord, userId: string): FakeListState {
  record.listState ??= new Map();
  let state = record.listState.get(userId);
  if (!state) {
    state = {};
    record.listState.set(userId, state);
  }
  return state;
}

/** Whether `userId` muted the channel now (a timed mute ends by itself, as on the server). */
export function isMutedBy(record: FakeChannelRecord, userId: string, now: string): boolean {
  const state = record.listState?.get(userId);
  return state?.muted === true && (!state.mute_expires || state.mute_expires > now);
}

/**
 * The list-management routes as the server has them (chat-spec §7): `POST /channels/{type}/{id}/hide|show`,
 * `PATCH /channels/{type}/{id}/member/{userId}` (`pinned`, `archived`), `POST /moderation/mute/channel` and
 * `/unmute/channel` (`GET /unread` leaves muted channels out: fake-unread.ts). Undefined for other requests.
 */
export function routeMembership(
  host: FakeMembershipHost,
  request: { method: string; path: string },
  segments: string[],
  body: Record<string, unknown>,
  userId: string,
): unknown {
  const [root, type = '', id = '', action, target] = segments;
  if (root === 'channels' && request.method === 'POST' && (action === 'hide' || action === 'show')) {
    member(host, `${type}:${id}`, userId);
    setHidden(host, `${type}:${id}`, userId, action === 'hide');
    return {};
  }
  if (root === 'channels' && request.method === 'PATCH' && action === 'member' && target !== undefined) {
    if (target !== userId) throw host.fail(403, 17, 'a user may only change their own membership');
    const record = member(host, `${type}:${id}`, userId);
    const state = listStateOf(record, userId);
    const set = (body.set ?? {}) as Record<string, unknown>;
    const unset = (body.unset ?? []) as string[];
    state.updated_at = host.now();
    for (const field of ['pinned', 'archived'] as const) {
      const key = field === 'pinned' ? 'pinned_at' : 'archived_at';
      if (set[field] === true) state[key] ??= host.now();
      if (set[field] === false || unset.includes(field)) delete state[key];
    }
    const presented = presentViewerMember(record, host.users, userId);
    host.emitToUser(userId, {
      type: 'member.updated',
      cid: `${type}:${id}`,
      member: presented,
      created_at: host.now(),
    } as ChatEvent);
    return { channel_member: presented };
  }
  if (
    request.method === 'POST' &&
    (request.path === '/moderation/mute/channel' || request.path === '/moderation/unmute/channel')
  ) {
    return mute(host, userId, body, request.path.includes('/mute/'));
  }
  return undefined;
}

function member(host: FakeMembershipHost, cid: string, userId: string): FakeChannelRecord {
  const record = host.channels.get(cid);
  if (!record) throw host.fail(404, 16, `channel ${cid} does not exist`);
  if (!record.members.includes(userId)) throw host.fail(403, 17, `user ${userId} is not a member of ${cid}`);
  return record;
}

function mute(host: FakeMembershipHost, userId: string, body: Record<string, unknown>, on: boolean) {
  const cids = [
    ...((body.channel_cids as string[] | undefined) ?? []),
    ...(typeof body.channel_cid === 'string' ? [body.channel_cid] : []),
  ];
  if (cids.length === 0) throw host.fail(400, 4, 'channel_cid or channel_cids is required');
  const expiration = typeof body.expiration === 'number' ? body.expiration : undefined;
  const expires = on && expiration ? new Date(Date.parse(host.now()) + expiration).toISOString() : undefined;
  for (const cid of cids) {
    const state = listStateOf(member(host, cid, userId), userId);
    state.muted = on;
    state.updated_at = host.now();
    if (expires) state.mute_expires = expires;
    else delete state.mute_expires;
  }
  const now = host.now();
  const channel_mutes = [...host.channels.values()]
    .filter((r) => isMutedBy(r, userId, now))
    .map((r) => {
      const until = r.listState?.get(userId)?.mute_expires;
      return { cid: `${r.type}:${r.id}`, ...(until ? { expires: until } : {}) };
    });
  host.emitToUser(userId, {
    type: 'notification.channel_mutes_updated',
    me: { id: userId, channel_mutes },
    created_at: now,
  } as ChatEvent);
  return {
    channel_mutes: cids.map((cid) => ({
      user: { id: userId },
      channel: presentChannel(member(host, cid, userId), userId),
      created_at: now,
      ...(expires ? { expires } : {}),
    })),
    own_user: { id: userId, channel_mutes },
  };
}
