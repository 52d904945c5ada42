import {
  MESSAGE_REMOVED_TEXT,
  type ChatEvent,
  type ChatUser,
  type Message,
  type Reaction,
} from '@caseroom/protocol';
import { channelSubject, type FakeChannelRecord } from './fake-data.js';

/** What the message routes need from the fake server. */
export interface FakeMessageHost {
  readonly users: Map<string, ChatUser>;
  readonly channels: Map<string, FakeChannelRecord>;
  /** Thread replies by parent id (replies are not in the channel's main list). */
  readonly replies: Map<string, Message[]>;
  emit(cid: string, event: ChatEvent): void;
  now(): string;
  fail(status: number, code: number, message: string): Error;
}

function locate(
  host: FakeMessageHost,
  id: string,
): { record: FakeChannelRecord; list: Message[]; index: number } {
  for (const record of host.channels.values()) {
    const index = record.messages.findIndex((m) => m.id === id);
    if (index >= 0) return { record, list: record.messages, index };
  }
  for (const [parentId, list] of host.replies) {
    const index = list.findIndex((m) => m.id === id);
    const parent = locateParent(host, parentId);
    if (index >= 0 && parent) return { record: parent, list, index };
  }
  throw host.fail(404, 16, `Message "${id}" does not exist`);
}

function locateParent(host: FakeMessageHost, parentId: string): FakeChannelRecord | undefined {
  return [...host.channels.values()].find((r) => r.messages.some((m) => m.id === parentId));
}

function replace(host: FakeMessageHost, id: string, change: (m: Message) => Message): Message {
  const { list, index } = locate(host, id);
  const next = change(list[index] as Message);
  list[index] = next;
  return next;
}

/** `/messages/...` routes of the fake: get, update, partial update, delete, reactions, replies. */
export function routeMessage(
  host: FakeMessageHost,
  method: string,
  segments: string[],
  query: Record<string, string>,
  body: Record<string, unknown>,
  userId: string,
): unknown {
  const [, id = '', sub, type] = segments;
  const found = locate(host, id);
  const cid = `${found.record.type}:${found.record.id}`;
  const user = host.users.get(userId) ?? { id: userId };
  const emit = (event: Record<string, unknown>) =>
    host.emit(cid, { cid, created_at: host.now(), ...event } as ChatEvent);
  if (!sub && method === 'GET') return { message: found.list[found.index] };
  if (!sub && (method === 'POST' || method === 'PUT')) {
    const set =
      method === 'POST'
        ? ((body.message ?? {}) as Record<string, unknown>)
        : ((body.set ?? {}) as Record<string, unknown>);
    const message = replace(host, id, (m) => {
      const next: Message = { ...m, ...set, updated_at: host.now() } as Message;
      if ('mentioned_users' in set)
        next.mentioned_users = (set.mentioned_users as string[]).map((u) => host.users.get(u) ?? { id: u });
      if (set.pinned === true) next.pinned_at = m.pinned_at ?? host.now();
      if (set.pinned === false) Object.assign(next, { pinned_at: null, pin_expires: null });
      return next;
    });
    emit({ type: 'message.updated', message });
    return { message };
  }
  if (!sub && method === 'DELETE') {
    if (query.delete_for_me === 'true') {
      const message = {
        ...(found.list[found.index] as Message),
        deleted_for_me: true,
        type: 'deleted' as const,
      };
      return { message };
    }
    if (query.hard === 'true') {
      const [message] = found.list.splice(found.index, 1);
      emit({ type: 'message.deleted', message, hard_delete: true });
      return { message };
    }
    // Someone else's message: a moderator's removal, which says so (as the server presents it).
    const message = replace(host, id, (m) => ({
      ...m,
      type: 'deleted',
      text: m.user_id !== userId ? MESSAGE_REMOVED_TEXT : '',
      attachments: [],
      deleted_at: host.now(),
      ...(m.user_id !== userId ? { moderation_details: { action: 'removed' } } : {}),
    }));
    emit({ type: 'message.deleted', message });
    return { message };
  }
  if (sub === 'replies' && method === 'GET') {
    const all = host.replies.get(id) ?? [];
    const limit = Number(query.limit ?? 50);
    const before = query.id_lt ? all.findIndex((m) => m.id === query.id_lt) : all.length;
    return { messages: all.slice(Math.max(0, before - limit), before) };
  }
  if (sub === 'reactions' && method === 'GET') {
    const limit = Math.min(Number(query.limit ?? 300), 300);
    const offset = Number(query.offset ?? 0);
    const all = [...(found.list[found.index] as Message).latest_reactions]
      .reverse()
      .filter((r) => !query.type || r.type === query.type);
    return { reactions: all.slice(offset, offset + limit) };
  }
  if (sub === 'reaction') {
    const reactionType =
      method === 'DELETE' ? (type ?? '') : String((body.reaction as { type?: string }).type);
    const score = method === 'DELETE' ? 1 : Number((body.reaction as { score?: number }).score ?? 1);
    const reaction: Reaction = {
      type: reactionType,
      score,
      user_id: userId,
      user,
      message_id: id,
      created_at: host.now(),
    };
    const message = replace(host, id, (m) => {
      const counts = { ...m.reaction_counts };
      const latest = m.latest_reactions.filter((r) => !(r.user_id === userId && r.type === reactionType));
      const had = latest.length !== m.latest_reactions.length;
      if (method === 'DELETE') {
        if (!had) throw host.fail(404, 16, `reaction ${reactionType} does not exist`);
        counts[reactionType] = (counts[reactionType] ?? 1) - 1;
        if (counts[reactionType] === 0) delete counts[reactionType];
        return { ...m, reaction_counts: counts, latest_reactions: latest, own_reactions: [] };
      }
      if (!had) counts[reactionType] = (counts[reactionType] ?? 0) + 1;
      return { ...m, reaction_counts: counts, latest_reactions: [...latest, reaction], own_reactions: [] };
    });
    const eventType = method === 'DELETE' ? 'reaction.deleted' : 'reaction.new';
    emit({ type: eventType, message, reaction, user });
    return { message, reaction };
  }
  throw host.fail(404, 16, `${method} /messages/${id}/${sub ?? ''} does not exist`);
}

/** A thread reply: kept by parent, emitted, and the parent's reply_count bumped (with message.updated). */
export function addReply(host: FakeMessageHost, cid: string, reply: Message, user: ChatUser): Message {
  const parentId = reply.parent_id ?? '';
  host.replies.set(parentId, [...(host.replies.get(parentId) ?? []), reply]);
  host.emit(cid, {
    type: 'message.new',
    cid,
    created_at: reply.created_at,
    message: reply,
    user,
  } as ChatEvent);
  const record = host.channels.get(cid);
  const index = record?.messages.findIndex((m) => m.id === parentId) ?? -1;
  const parent = record?.messages[index];
  if (record && parent) {
    const updated = { ...parent, reply_count: parent.reply_count + 1 };
    record.messages[index] = updated;
    host.emit(cid, { type: 'message.updated', cid, created_at: host.now(), message: updated } as ChatEvent);
  }
  return reply;
}

/** `/messages/...`, `GET /users` (name prefix) and `POST /threads`; undefined for other paths. */
export function routeExtras(
  host: FakeMessageHost,
  request: { method: string; path: string; query: Record<string, string> },
  segments: string[],
  body: Record<string, unknown>,
  userId: string,
): unknown {
  if (segments[0] === 'messages')
    return routeMessage(host, request.method, segments, request.query, body, userId);
  if (request.method === 'GET' && request.path === '/users') {
    const payload = JSON.parse(request.query.payload ?? '{}') as {
      filter_conditions?: { name?: { $autocomplete?: string } };
    };
    const prefix = (payload.filter_conditions?.name?.$autocomplete ?? '').toLowerCase();
    return {
      users: [...host.users.values()].filter((u) => (u.name ?? u.id).toLowerCase().startsWith(prefix)),
    };
  }
  if (request.method === 'POST' && request.path === '/threads') {
    const threads = [...host.replies.entries()].flatMap(([parentId, replies]) => {
      const record = locateParent(host, parentId);
      const parent = record?.messages.find((m) => m.id === parentId);
      if (!record || !parent || !record.members.includes(userId)) return [];
      const { channel } = channelSubject(record, host.users);
      const participants = [...new Set([parent, ...replies].map((m) => m.user?.id ?? ''))].filter(Boolean);
      const last = replies.at(-1)?.created_at;
      return [
        {
          parent_message_id: parentId,
          parent_message: parent,
          channel_cid: record.type + ':' + record.id,
          channel,
          reply_count: replies.length,
          participant_count: participants.length,
          thread_participants: participants.map((id) => ({
            user_id: id,
            user: host.users.get(id) ?? { id },
            created_at: parent.created_at,
          })),
          latest_replies: replies.slice(-3),
          read: [],
          created_at: parent.created_at,
          updated_at: last ?? parent.updated_at,
          ...(last ? { last_message_at: last } : {}),
        },
      ];
    });
    return { threads };
  }
  return undefined;
}
