import type {
  ChannelState,
  ChatEvent,
  ChatUser,
  Message,
  NewMessage,
  QueryChannelRequest,
  QueryChannelsRequest,
} from '@caseroom/protocol';
import { matchesFilter } from '../channels/filter.js';
import {
  channelSubject,
  lastMessageAt,
  pageOf,
  presentChannelState,
  type FakeChannelRecord,
} from './fake-data.js';

/** What the channel routes need from the fake server. */
export interface FakeChannelHost {
  readonly users: Map<string, ChatUser>;
  readonly channels: Map<string, FakeChannelRecord>;
  createChannel(
    type: string,
    id: string,
    data: { members?: string[] } & Record<string, unknown>,
    createdBy: string,
  ): FakeChannelRecord;
  sendMessage(cid: string, userId: string, message: NewMessage): Message;
  emit(cid: string, event: ChatEvent, exceptUserId?: string): void;
  now(): string;
  fail(status: number, code: number, message: string): Error;
}

/** `POST /channels/{type}/{id}/{action}`: query, message, read, event, unread, stop-watching. */
export function channelAction(
  host: FakeChannelHost,
  userId: string,
  type: string,
  id: string,
  action: string,
  body: Record<string, unknown>,
): unknown {
  const cid = `${type}:${id}`;
  if (action === 'query') return queryChannel(host, userId, type, id, body as QueryChannelRequest);
  const record = memberChannel(host, userId, cid);
  const user = host.users.get(userId) ?? { id: userId };
  switch (action) {
    case 'message':
      return { message: host.sendMessage(cid, userId, (body.message ?? {}) as NewMessage) };
    case 'read': {
      const at = host.now();
      if (typeof body.thread_id === 'string') {
        const event = { type: 'message.read', cid, created_at: at, user, thread_id: body.thread_id };
        host.emit(cid, event as unknown as ChatEvent);
        return { event };
      }
      // As the server: up to `message_id` when given (what the reader had), else the newest message.
      const upTo =
        typeof body.message_id === 'string' ? record.messages.findIndex((m) => m.id === body.message_id) : -1;
      const last = upTo >= 0 ? record.messages[upTo] : record.messages[record.messages.length - 1];
      const after = upTo >= 0 ? record.messages.slice(upTo + 1).filter((m) => m.user?.id !== userId) : [];
      record.read.set(userId, {
        last_read: at,
        unread_messages: after.length,
        ...(last ? { last_read_message_id: last.id } : {}),
      });
      const event = {
        type: 'message.read',
        cid,
        created_at: at,
        user,
        ...(last ? { last_read_message_id: last.id } : {}),
      } as ChatEvent;
      host.emit(cid, event);
      return { event };
    }
    case 'event': {
      const sent = (body.event ?? {}) as { type?: string; parent_id?: string };
      // As the server answers: the event as it was relayed.
      const event = { ...sent, cid, created_at: host.now(), user } as ChatEvent;
      host.emit(cid, event, userId);
      return { event };
    }
    case 'unread': {
      const at = host.now();
      const index = record.messages.findIndex((m) => m.id === body.message_id);
      if (index < 0) throw host.fail(400, 4, `message ${String(body.message_id)} is not in channel ${cid}`);
      const previous = record.messages[index - 1];
      const unread = record.messages.slice(index).filter((m) => m.user?.id !== userId).length;
      record.read.set(userId, {
        last_read: at,
        unread_messages: unread,
        ...(previous ? { last_read_message_id: previous.id } : {}),
      });
      const event: ChatEvent = {
        type: 'notification.mark_unread',
        cid,
        created_at: at,
        first_unread_message_id: String(body.message_id),
        last_read_at: at,
        ...(previous ? { last_read_message_id: previous.id } : {}),
        unread_messages: unread,
        total_unread_count: unread,
        unread_channels: unread > 0 ? 1 : 0,
      };
      return { event };
    }
    case 'stop-watching':
      return {};
    default:
      throw host.fail(404, 16, `channel action ${action} does not exist`);
  }
}

/** The channel `cid` when `userId` is a member; 404 / 403 otherwise. */
export function memberChannel(host: FakeChannelHost, userId: string, cid: string): FakeChannelRecord {
  const record = host.channels.get(cid);
  if (!record) throw host.fail(404, 16, `channel ${cid} does not exist`);
  if (!record.members.includes(userId)) throw host.fail(403, 17, `user ${userId} is not a member of ${cid}`);
  return record;
}

/** Create-or-get and one page of messages (`POST /channels/{type}/{id}/query`). */
export function queryChannel(
  host: FakeChannelHost,
  userId: string,
  type: string,
  id: string,
  body: QueryChannelRequest,
): ChannelState {
  const cid = `${type}:${id}`;
  if (!host.channels.has(cid)) host.createChannel(type, id, body.data ?? { members: [userId] }, userId);
  const record = memberChannel(host, userId, cid);
  return presentChannelState(record, pageOf(record.messages, body.messages ?? {}), host.users, userId);
}

/** `POST /channels`: the user's visible channels matching the filter, newest message first. */
export function queryChannels(
  host: FakeChannelHost,
  userId: string,
  body: QueryChannelsRequest,
): { channels: ChannelState[] } {
  const matching = [...host.channels.values()]
    .filter((r) => r.members.includes(userId) && !r.hidden.has(userId))
    .filter((r) => matchesFilter(body.filter_conditions ?? {}, channelSubject(r, host.users, userId)))
    .sort(fakeChannelOrder(userId, body.sort));
  const offset = body.offset ?? 0;
  const page = matching.slice(offset, offset + (body.limit ?? 25));
  const messageLimit = body.message_limit ?? 25;
  return {
    channels: page.map((r) => presentChannelState(r, r.messages.slice(-messageLimit), host.users, userId)),
  };
}

/**
 * The order of `POST /channels` (newest message first by default). Sorts by `pinned_at` or `archived_at` first put
 * the viewer's pinned (archived) channels first, newest first, as the server's `NULLS LAST` does; the rest by
 * newest message.
 */
function fakeChannelOrder(userId: string, sort: QueryChannelsRequest['sort']) {
  const first = sort?.[0]?.field;
  const key = first === 'pinned_at' || first === 'archived_at' ? first : undefined;
  return (a: FakeChannelRecord, b: FakeChannelRecord) => {
    if (key) {
      const x = a.listState?.get(userId)?.[key];
      const y = b.listState?.get(userId)?.[key];
      if (x !== y) return x === undefined ? 1 : y === undefined ? -1 : y.localeCompare(x);
    }
    return lastMessageAt(b).localeCompare(lastMessageAt(a));
  };
}

/** What membership changes need: the channel routes' host plus user-addressed events. */
export interface FakeMembershipHost extends FakeChannelHost {
  emitToUser(userId: string, event: ChatEvent): void;
}

function channelEvent(host: FakeChannelHost, record: FakeChannelRecord, type: string, extra = {}): ChatEvent {
  const { channel } = channelSubject(record, host.users);
  return { type, cid: channel.cid, channel, created_at: host.now(), ...extra } as ChatEvent;
}

function existing(host: FakeChannelHost, cid: string): FakeChannelRecord {
  const record = host.channels.get(cid);
  if (!record) throw host.fail(404, 16, `channel ${cid} does not exist`);
  return record;
}

/** Hides (or shows) the channel for `userId`: `channel.hidden` / `channel.visible` to that user. */
export function setHidden(host: FakeMembershipHost, cid: string, userId: string, hidden: boolean): void {
  const record = existing(host, cid);
  if (hidden) record.hidden.add(userId);
  else record.hidden.delete(userId);
  host.emitToUser(userId, channelEvent(host, record, hidden ? 'channel.hidden' : 'channel.visible'));
}

/** Adds or removes members: `member.added/removed` to the channel, `notification.*_channel` to them. */
export function changeMembers(
  host: FakeMembershipHost,
  cid: string,
  userIds: string[],
  kind: 'added' | 'removed',
): void {
  const record = existing(host, cid);
  for (const userId of userIds) {
    const now = host.now();
    const member = {
      user_id: userId,
      user: host.users.get(userId) ?? { id: userId },
      channel_role: 'channel_member',
      created_at: now,
      updated_at: now,
    };
    if (kind === 'added' && !record.members.includes(userId)) record.members.push(userId);
    host.emit(cid, { type: `member.${kind}`, cid, created_at: host.now(), member } as unknown as ChatEvent);
    if (kind === 'removed') {
      record.members = record.members.filter((m) => m !== userId);
      record.hidden.delete(userId);
    }
    const type = kind === 'added' ? 'notification.added_to_channel' : 'notification.removed_from_channel';
    host.emitToUser(userId, channelEvent(host, record, type, { member }));
  }
}

/** Merges custom data into the channel and emits `channel.updated`. */
export function updateChannelData(host: FakeChannelHost, cid: string, data: Record<string, unknown>): void {
  const record = existing(host, cid);
  record.custom = { ...record.custom, ...data };
  host.emit(cid, channelEvent(host, record, 'channel.updated'));
}

/** Invites `userId` (not a member until accepted): `notification.invited` to them. */
export function invite(host: FakeMembershipHost, cid: string, userId: string): void {
  host.emitToUser(userId, channelEvent(host, existing(host, cid), 'notification.invited'));
}

/** The invitee answers: accepted makes them a member; `notification.invite_accepted/_rejected` to them. */
export function answerInvite(host: FakeMembershipHost, cid: string, userId: string, accept: boolean): void {
  const record = existing(host, cid);
  if (accept && !record.members.includes(userId)) record.members.push(userId);
  const type = accept ? 'notification.invite_accepted' : 'notification.invite_rejected';
  host.emitToUser(userId, channelEvent(host, record, type));
}
