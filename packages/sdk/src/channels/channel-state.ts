import type {
  Channel,
  ChannelMember,
  ChannelState,
  ChatEvent,
  ChatUser,
  ReadState,
} from '@caseroom/protocol';
import { received, type LocalMessage } from '../messages/local-message.js';
import { applyMessageEvent } from '../messages/message-state.js';
import {
  currentSet,
  latestSet,
  mapMessages,
  upsertMessage,
  withLatestPage,
  type MessageSets,
  PAGE_SIZE,
} from '../messages/message-sets.js';

/** One channel as the client sees it; every change is a new object. */
export interface ChannelSnapshot {
  cid: string | undefined;
  type: string;
  id: string | undefined;
  channel?: Channel;
  members: readonly ChannelMember[];
  /** The messages of the current message set, oldest first. */
  messages: readonly LocalMessage[];
  messageSets: MessageSets;
  hasPrev: boolean;
  hasNext: boolean;
  isLatest: boolean;
  /** A query (watch or reload) is running. */
  loading: boolean;
  /** chat-spec §4 message-list load state. */
  loadState: 'idle' | 'loading-top' | 'loading-bottom' | 'error';
  error?: string;
  /** Read state per user id. */
  read: Readonly<Record<string, ReadState>>;
  /** Unread messages of the connected user in this channel. */
  unreadCount: number;
  /** Other users typing now, by user id (chat-spec §4 Typing). */
  typing: Readonly<Record<string, { user: ChatUser; parent_id?: string; at: number }>>;
  watching: boolean;
  watcherCount: number;
  /**
   * The connected user's own membership (chat-spec §3 Member): `pinned_at` and `archived_at` of their list
   * state. Absent until a query answered for a member.
   */
  membership?: ChannelMember;
  /** When the viewer's timed mute ends (ISO); `channel.muted` says whether the channel is muted. */
  muteExpiresAt?: string;
}

export function emptyChannelSnapshot(type: string, id: string | undefined): ChannelSnapshot {
  return {
    cid: id === undefined ? undefined : `${type}:${id}`,
    type,
    id,
    members: [],
    messages: [],
    messageSets: [],
    hasPrev: false,
    hasNext: false,
    isLatest: true,
    loading: false,
    loadState: 'idle',
    read: {},
    unreadCount: 0,
    typing: {},
    watching: false,
    watcherCount: 0,
  };
}

/** Recomputes the fields derived from the message sets. */
export function withSets(state: ChannelSnapshot, messageSets: MessageSets): ChannelSnapshot {
  if (messageSets === state.messageSets) return state;
  const current = currentSet(messageSets);
  return {
    ...state,
    messageSets,
    messages: current?.messages ?? [],
    hasPrev: current?.hasPrev ?? false,
    hasNext: current?.hasNext ?? false,
    isLatest: current?.isLatest ?? true,
  };
}

/**
 * A query answer applied to state. Messages still sending or failed locally are kept: the server
 * does not know them yet, and dropping them would lose the user's text.
 */
export function hydrate(
  state: ChannelSnapshot,
  answer: ChannelState,
  me: string | undefined,
  limit = PAGE_SIZE,
): ChannelSnapshot {
  const pending = state.messages.filter((m) => m.status !== 'received');
  // Messages held that committed after the server read this answer (a send acknowledged or a message.new that
  // arrived while the query was in flight): the answer cannot know them, so they stay.
  const readAt = answer.channel.last_seq;
  const later =
    typeof readAt === 'number'
      ? (latestSet(state.messageSets)?.messages ?? []).filter(
          (m) => m.status === 'received' && typeof m.seq === 'number' && m.seq > readAt,
        )
      : [];
  let sets = withLatestPage(state.messageSets, answer.messages.map(received), limit);
  for (const m of [...pending, ...later])
    if (!answer.messages.some((a) => a.id === m.id)) sets = upsertMessage(sets, m);
  const read: Record<string, ReadState> = {};
  for (const r of answer.read) read[r.user.id] = r;
  const next: ChannelSnapshot = {
    ...state,
    cid: answer.channel.cid,
    id: answer.channel.id,
    type: answer.channel.type,
    channel: answer.channel,
    members: answer.members,
    read,
    unreadCount: me !== undefined ? (read[me]?.unread_messages ?? state.unreadCount) : state.unreadCount,
    watcherCount: answer.watcher_count,
    error: undefined,
    ...(answer.membership ? { membership: newerMembership(state.membership, answer.membership) } : {}),
  };
  return withSets(next, sets);
}

/**
 * The newer of the held membership and a query's: an answer read before a pin or archive committed (a watch in
 * flight) must not undo what the PATCH answer or `member.updated` already applied.
 */
function newerMembership(held: ChannelMember | undefined, answered: ChannelMember): ChannelMember {
  return held && held.user_id === answered.user_id && held.updated_at > answered.updated_at ? held : answered;
}

/** Applies one event for this channel. `me` is the connected user's id. */
export function applyChannelEvent(
  state: ChannelSnapshot,
  event: ChatEvent,
  me: string | undefined,
): ChannelSnapshot {
  switch (event.type) {
    case 'message.new': {
      const incoming = event.message;
      // Thread replies not shown in the channel belong to their thread; the parent's reply_count
      // arrives with the message.updated that follows.
      if (incoming.parent_id && !incoming.show_in_channel) return state;
      const own = incoming.user?.id === me || incoming.user_id === me;
      const known = state.messageSets.some((s) => s.messages.some((m) => m.id === incoming.id));
      const next = withSets(state, upsertMessage(state.messageSets, received(incoming)));
      const counted = !own && !known && !incoming.silent;
      const typing = dropTyping(next.typing, incoming.user?.id);
      return {
        ...next,
        typing,
        unreadCount: counted ? next.unreadCount + 1 : next.unreadCount,
        // The server brings a hidden channel back with a message in the main list.
        channel: next.channel
          ? { ...next.channel, last_message_at: incoming.created_at, hidden: false }
          : next.channel,
      };
    }
    case 'message.updated':
    case 'message.deleted':
    case 'message.undeleted':
    case 'reaction.new':
    case 'reaction.updated':
    case 'reaction.deleted': {
      const incoming = event.message;
      return withSets(
        state,
        mapMessages(state.messageSets, (m) => (m.id === incoming.id ? applyMessageEvent(m, event, me) : m)),
      );
    }
    case 'capabilities.changed':
      return state.channel
        ? { ...state, channel: { ...state.channel, own_capabilities: event.own_capabilities } }
        : state;
    case 'user.updated':
      return withUpdatedUser(state, event.user);
    case 'notification.mark_unread':
      return { ...state, unreadCount: event.unread_messages };
    case 'notification.mark_read':
      return { ...state, unreadCount: unreadAfter(state, state.read[me ?? '']?.last_read_message_id, me) };
    case 'channel.updated': {
      if (!event.channel || !state.channel) return state;
      // chat-spec §4: data merged, keeping hidden and own_capabilities.
      return {
        ...state,
        channel: {
          ...state.channel,
          ...event.channel,
          hidden: state.channel.hidden,
          own_capabilities: state.channel.own_capabilities,
        },
      };
    }
    case 'channel.truncated':
      return {
        ...withSets(state, event.message ? [{ ...emptySet(), messages: [received(event.message)] }] : []),
        channel:
          event.channel && state.channel
            ? { ...state.channel, truncated_at: event.channel.truncated_at }
            : state.channel,
      };
    case 'channel.hidden':
      return state.channel ? { ...state, channel: { ...state.channel, hidden: true } } : state;
    case 'channel.visible':
      return state.channel ? { ...state, channel: { ...state.channel, hidden: false } } : state;
    case 'member.added':
    case 'member.updated': {
      const member = event.member;
      if (!member) return state;
      const others = state.members.filter((m) => m.user_id !== member.user_id);
      const own = member.user_id === me ? { membership: { ...state.membership, ...member } } : {};
      return { ...state, ...own, members: [...others, member] };
    }
    case 'notification.channel_mutes_updated': {
      // The user's whole mute list (chat-spec §7): this channel is muted when it is on it.
      const mute = event.me.channel_mutes.find((m) => m.cid === state.cid);
      if (!state.channel) return state;
      const { muteExpiresAt: _old, ...rest } = state;
      return {
        ...rest,
        channel: { ...state.channel, muted: mute !== undefined },
        ...(mute?.expires ? { muteExpiresAt: mute.expires } : {}),
      };
    }
    case 'member.removed': {
      const id = event.member?.user_id ?? event.user?.id;
      return { ...state, members: state.members.filter((m) => m.user_id !== id) };
    }
    case 'message.read': {
      const user = event.user;
      // A thread read (with thread_id) belongs to the thread, not to the channel's read state.
      if (!user || (event as { thread_id?: unknown }).thread_id) return state;
      const read: ReadState = {
        user,
        last_read: event.created_at,
        unread_messages: 0,
        ...(event.last_read_message_id ? { last_read_message_id: event.last_read_message_id } : {}),
      };
      return {
        ...state,
        read: { ...state.read, [user.id]: read },
        // A read up to a message the reader had (a throttled read sent later) leaves what came after it unread.
        unreadCount: user.id === me ? unreadAfter(state, event.last_read_message_id, me) : state.unreadCount,
      };
    }
    case 'typing.start': {
      const user = event.user;
      if (!user || user.id === me) return state;
      const entry = { user, at: Date.now(), ...(event.parent_id ? { parent_id: event.parent_id } : {}) };
      return { ...state, typing: { ...state.typing, [user.id]: entry } };
    }
    case 'typing.stop': {
      const typing = dropTyping(state.typing, event.user?.id);
      return typing === state.typing ? state : { ...state, typing };
    }
    default:
      return state;
  }
}

/** chat-spec §4 `user.updated`: the new user data merged into members, read state and messages. */
export function withUpdatedUser(state: ChannelSnapshot, user: ChatUser): ChannelSnapshot {
  const merge = <T extends { id: string }>(u: T): T => (u.id === user.id ? { ...u, ...user } : u);
  const members = state.members.map((m) =>
    m.user_id === user.id ? { ...m, user: { ...(m.user ?? { id: user.id }), ...user } } : m,
  );
  const held = state.read[user.id];
  const read = held ? { ...state.read, [user.id]: { ...held, user: merge(held.user) } } : state.read;
  const sets = mapMessages(state.messageSets, (m) => {
    const author = m.user?.id === user.id;
    const mentioned = m.mentioned_users.some((u) => u.id === user.id);
    if (!author && !mentioned) return m;
    return {
      ...m,
      ...(author && m.user ? { user: merge(m.user) } : {}),
      ...(mentioned ? { mentioned_users: m.mentioned_users.map(merge) } : {}),
    };
  });
  return { ...withSets(state, sets), members, read };
}

/** Others' messages after `messageId` in the newest messages held (0 when it is not held: all read). */
function unreadAfter(state: ChannelSnapshot, messageId: string | undefined, me: string | undefined): number {
  const messages = state.messageSets.find((s) => s.isLatest)?.messages ?? state.messages;
  const at = messageId ? messages.findIndex((m) => m.id === messageId) : -1;
  if (at < 0) return 0;
  let count = 0;
  for (const m of messages.slice(at + 1)) {
    const own = (m.user?.id ?? m.user_id) === me;
    if (!own && !m.silent && m.type !== 'system' && m.status === 'received') count++;
  }
  return count;
}

function dropTyping(
  typing: ChannelSnapshot['typing'],
  userId: string | undefined,
): ChannelSnapshot['typing'] {
  if (userId === undefined || !(userId in typing)) return typing;
  const { [userId]: _gone, ...rest } = typing;
  return rest;
}

function emptySet() {
  return { messages: [], isLatest: true, isCurrent: true, hasPrev: false, hasNext: false };
}
