import type {
  Channel,
  ChannelMember,
  ChannelState,
  ChatUser,
  Message,
  MessagePagination,
  NewMessage,
  ReadState,
} from '@caseroom/protocol';
import { CAPABILITIES, DEFAULT_CHANNEL_TYPE_SETTINGS } from '@caseroom/protocol';

export interface FakeChannelRecord {
  type: string;
  id: string;
  custom: Record<string, unknown>;
  members: string[];
  messages: Message[];
  read: Map<string, { last_read: string; unread_messages: number; last_read_message_id?: string }>;
  createdAt: string;
  createdBy: string;
  hidden: Set<string>;
  /** The channel's event counter: the `seq` of its last recorded event (as the server's `last_seq`). */
  lastSeq: number;
  /** The channel type's `url_enrichment` (off unless a test turns it on). */
  urlEnrichment?: boolean;
  /** Each user's own list state (pinned, archived, muted): testing/fake-membership. */
  listState?: Map<
    string,
    { pinned_at?: string; archived_at?: string; muted?: boolean; mute_expires?: string; updated_at?: string }
  >;
  /** Capabilities the viewer lacks (tests of capability rules). */
  withoutCapabilities?: string[];
}

/** The channel as `viewer` sees it (`hidden` is per member, as on the server). */
export function presentChannel(record: FakeChannelRecord, viewer?: string): Channel {
  const last = record.messages[record.messages.length - 1];
  return {
    ...record.custom,
    id: record.id,
    type: record.type,
    cid: `${record.type}:${record.id}`,
    created_at: record.createdAt,
    updated_at: record.createdAt,
    ...(last ? { last_message_at: last.created_at } : {}),
    member_count: record.members.length,
    last_seq: record.lastSeq,
    ...(viewer !== undefined && record.members.includes(viewer)
      ? { hidden: record.hidden.has(viewer), muted: mutedNow(record, viewer) }
      : {}),
    frozen: false,
    config: {
      ...DEFAULT_CHANNEL_TYPE_SETTINGS,
      name: record.type,
      commands: [],
      url_enrichment: record.urlEnrichment === true,
    },
    own_capabilities: CAPABILITIES.filter((c) => !record.withoutCapabilities?.includes(c)),
  };
}

export function presentMember(user: ChatUser, createdAt: string): ChannelMember {
  return {
    user_id: user.id,
    user,
    channel_role: 'channel_member',
    created_at: createdAt,
    updated_at: createdAt,
  };
}

export function presentRead(record: FakeChannelRecord, users: Map<string, ChatUser>): ReadState[] {
  return record.members.map((id) => {
    const read = record.read.get(id) ?? { last_read: record.createdAt, unread_messages: 0 };
    return { user: users.get(id) ?? { id }, ...read };
  });
}

export function buildMessage(
  input: NewMessage,
  cid: string,
  user: ChatUser,
  users: Map<string, ChatUser>,
  at: string,
): Message {
  const { mentioned_users: mentioned = [], ...rest } = input;
  return {
    ...rest,
    id: input.id ?? `fake-${crypto.randomUUID()}`,
    cid,
    text: input.text ?? '',
    type: input.parent_id ? 'reply' : (input.type ?? 'regular'),
    user,
    user_id: user.id,
    mentioned_users: mentioned.map((id) => users.get(id) ?? { id }),
    attachments: input.attachments ?? [],
    silent: input.silent ?? false,
    pinned: false,
    reply_count: 0,
    reaction_counts: {},
    reaction_scores: {},
    reaction_groups: {},
    latest_reactions: [],
    own_reactions: [],
    created_at: at,
    updated_at: at,
  };
}

/** A mute in force now (a timed one ends by itself). */
function mutedNow(record: FakeChannelRecord, viewer: string): boolean {
  const state = record.listState?.get(viewer);
  return state?.muted === true && (!state.mute_expires || Date.parse(state.mute_expires) > Date.now());
}

/** The viewer's own member record, with their pinned and archived times. */
export function presentViewerMember(
  record: FakeChannelRecord,
  users: Map<string, ChatUser>,
  viewer: string,
): ChannelMember {
  const state = record.listState?.get(viewer) ?? {};
  return {
    ...presentMember(users.get(viewer) ?? { id: viewer }, record.createdAt),
    ...(state.updated_at ? { updated_at: state.updated_at } : {}),
    pinned_at: state.pinned_at ?? null,
    archived_at: state.archived_at ?? null,
  };
}

export function channelSubject(record: FakeChannelRecord, users: Map<string, ChatUser>, viewer?: string) {
  return {
    channel: presentChannel(record, viewer),
    members: record.members.map((id) => presentMember(users.get(id) ?? { id }, record.createdAt)),
    ...(viewer !== undefined && record.members.includes(viewer)
      ? { membership: presentViewerMember(record, users, viewer) }
      : {}),
  };
}

export function presentChannelState(
  record: FakeChannelRecord,
  messages: Message[],
  users: Map<string, ChatUser>,
  viewer?: string,
): ChannelState {
  const { channel, members, membership } = channelSubject(record, users, viewer);
  return {
    channel,
    ...(membership ? { membership } : {}),
    messages,
    pinned_messages: [],
    members,
    read: presentRead(record, users),
    watcher_count: 0,
  };
}

export function lastMessageAt(record: FakeChannelRecord): string {
  return record.messages[record.messages.length - 1]?.created_at ?? record.createdAt;
}

/** One page of messages for `id_lt`, `id_gt`, `id_around` or the newest. */
export function pageOf(all: Message[], page: MessagePagination): Message[] {
  const index = (id: string) => all.findIndex((m) => m.id === id);
  const limit = page.limit ?? 25;
  if (page.id_lt) return all.slice(0, Math.max(0, index(page.id_lt))).slice(-limit);
  if (page.id_gt) return all.slice(index(page.id_gt) + 1).slice(0, limit);
  if (page.id_around) {
    const start = Math.max(0, index(page.id_around) - Math.floor(limit / 2));
    return all.slice(start, start + limit);
  }
  return all.slice(-limit);
}
