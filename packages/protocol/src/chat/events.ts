import { z } from 'zod';
import { ChatErrorBody } from '../errors.js';
import { Channel, ChannelMember, ChatUser, Message, OwnUser, Reaction } from './models.js';
import { ThreadUpdatedEvent } from './threads.js';

/**
 * Fields every event carries. `cid` is set on channel events; so is `seq`, the event's number in its channel's
 * sequence (consecutive per channel, in commit order; a message's `seq` is its `message.new` event's). Transient
 * events (typing, presence, health) and a user's notifications carry no `seq`. Event schemas are plain
 * `z.object`s: their types have no index signature, so a field the protocol does not declare does not compile on
 * the server; tests parse every frame with {@link strictSchema} (unknown keys fail), production does not parse what
 * it sends.
 */
const base = {
  created_at: z.string(),
  cid: z.string().optional(),
  seq: z.number().int().positive().optional(),
  channel_id: z.string().optional(),
  channel_type: z.string().optional(),
  user: ChatUser.optional(),
};

export const HealthCheckEvent = z.object({
  ...base,
  type: z.literal('health.check'),
  connection_id: z.string(),
  me: OwnUser.optional(),
});

export const MessageNewEvent = z.object({
  ...base,
  type: z.literal('message.new'),
  cid: z.string(),
  message: Message,
  watcher_count: z.number().optional(),
  total_unread_count: z.number().optional(),
  unread_channels: z.number().optional(),
});

export const MessageUpdatedEvent = z.object({
  ...base,
  type: z.enum(['message.updated', 'message.deleted', 'message.undeleted']),
  cid: z.string(),
  message: Message,
  hard_delete: z.boolean().optional(),
  deleted_for_me: z.boolean().optional(),
});

export const ReactionEvent = z.object({
  ...base,
  type: z.enum(['reaction.new', 'reaction.updated', 'reaction.deleted']),
  cid: z.string(),
  message: Message,
  reaction: Reaction,
});

export const ChannelEvent = z.object({
  ...base,
  type: z.enum([
    'channel.updated',
    'channel.deleted',
    'channel.truncated',
    'channel.hidden',
    'channel.visible',
  ]),
  cid: z.string(),
  channel: Channel.optional(),
  message: Message.optional(),
  clear_history: z.boolean().optional(),
  /** `channel.deleted` of a hard delete (the channel and its history are gone). */
  hard_delete: z.boolean().optional(),
});

/** A member's devices received messages up to `last_delivered_message_id` (delivery reports). */
export const DeliveredEvent = z.object({
  ...base,
  type: z.literal('message.delivered'),
  cid: z.string(),
  last_delivered_message_id: z.string(),
  last_delivered_at: z.string(),
});

/** A viewer's `own_capabilities` changed (channel frozen or unfrozen, slow mode set); sent to each member. */
export const CapabilitiesChangedEvent = z.object({
  ...base,
  type: z.literal('capabilities.changed'),
  cid: z.string(),
  own_capabilities: z.array(z.string()),
});

export const MemberEvent = z.object({
  ...base,
  type: z.enum(['member.added', 'member.updated', 'member.removed']),
  cid: z.string(),
  member: ChannelMember.optional(),
});

export const NotificationEvent = z.object({
  ...base,
  type: z.enum([
    'notification.message_new',
    'notification.added_to_channel',
    'notification.removed_from_channel',
    'notification.invited',
    'notification.invite_accepted',
    'notification.invite_rejected',
    'notification.mark_read',
  ]),
  channel: Channel.optional(),
  message: Message.optional(),
  member: ChannelMember.optional(),
  total_unread_count: z.number().optional(),
  unread_channels: z.number().optional(),
});

/** The reader marked the channel unread from a message (to the reader's own connections). */
export const MarkUnreadEvent = z.object({
  ...base,
  type: z.literal('notification.mark_unread'),
  cid: z.string(),
  first_unread_message_id: z.string(),
  last_read_at: z.string(),
  last_read_message_id: z.string().optional(),
  unread_messages: z.number(),
  total_unread_count: z.number(),
  unread_channels: z.number(),
});

/** The user's channel mutes in force after a mute or unmute (to the user's own connections). */
export const ChannelMutesEvent = z.object({
  ...base,
  type: z.literal('notification.channel_mutes_updated'),
  me: z.object({
    id: z.string(),
    channel_mutes: z.array(z.object({ cid: z.string(), expires: z.string().optional() })),
  }),
});

export const ReadEvent = z.object({
  ...base,
  type: z.literal('message.read'),
  cid: z.string(),
  last_read_message_id: z.string().optional(),
  /** Set when a thread was read (its parent message id). */
  thread_id: z.string().optional(),
});

export const TypingEvent = z.object({
  ...base,
  type: z.enum(['typing.start', 'typing.stop']),
  cid: z.string(),
  parent_id: z.string().optional(),
});

export const UserEvent = z.object({
  ...base,
  type: z.enum([
    'user.updated',
    'user.presence.changed',
    'user.deleted',
    'user.deactivated',
    'user.reactivated',
  ]),
  user: ChatUser,
  /** `user.deleted`: how it was deleted. */
  hard_delete: z.boolean().optional(),
  mark_messages_deleted: z.boolean().optional(),
});

/**
 * The only frame of a refused socket (bad api_key, missing/expired/bad token): the server sends it, then
 * closes with 1000. On code 40 the client refreshes its token and reconnects.
 */
export const ConnectionErrorEvent = z.object({
  type: z.literal('connection.error'),
  error: ChatErrorBody,
  created_at: z.string(),
});

/** Events the client synthesises itself; never sent by the server. */
export const LocalConnectionEvent = z.object({
  ...base,
  type: z.enum(['connection.changed', 'connection.recovered']),
  online: z.boolean().optional(),
});

const SERVER_EVENTS = [
  HealthCheckEvent,
  MessageNewEvent,
  MessageUpdatedEvent,
  ReactionEvent,
  ChannelEvent,
  CapabilitiesChangedEvent,
  MemberEvent,
  NotificationEvent,
  MarkUnreadEvent,
  ChannelMutesEvent,
  ReadEvent,
  DeliveredEvent,
  TypingEvent,
  UserEvent,
  ThreadUpdatedEvent,
  ConnectionErrorEvent,
] as const;

/** Every event the server sends (custom events aside, see {@link CustomEvent}), a tagged union on `type`. */
export const ServerEvent = z.discriminatedUnion('type', [...SERVER_EVENTS]);
export type ServerEvent = z.infer<typeof ServerEvent>;

/** Every event a client handles: the server's and the ones it synthesises itself, a tagged union on `type`. */
export const ChatEvent = z.discriminatedUnion('type', [...SERVER_EVENTS, LocalConnectionEvent]);
export type ChatEvent = z.infer<typeof ChatEvent>;
export type ChatEventType = ChatEvent['type'];
export type EventOf<T extends ChatEventType> = Extract<ChatEvent, { type: T }>;

/** The types the server sends, with the schema of each. */
export const SERVER_EVENT_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map(
  SERVER_EVENTS.flatMap((schema) => {
    const type: z.ZodLiteral<string> | z.ZodEnum = schema.shape.type;
    const types = type instanceof z.ZodEnum ? type.options : [...type.values];
    return types.map((t) => [String(t), schema] as const);
  }),
);

/**
 * Namespaces of the server's events (`message.`, `channel.`, `capabilities.`, ...): a custom event may not use one,
 * so nobody can send a frame a client would take for the server's. Derived from the union, so a new event's
 * namespace is reserved as soon as it is declared.
 */
export const RESERVED_EVENT_PREFIXES: readonly string[] = [
  ...new Set([...SERVER_EVENT_SCHEMAS.keys(), 'connection.changed'].map((t) => `${t.split('.')[0]}.`)),
];

export function isReservedEventType(type: string): boolean {
  return RESERVED_EVENT_PREFIXES.some((p) => type.startsWith(p));
}

/**
 * A custom event: a user's to a channel (`POST .../event`) or the server's to one user
 * (`POST /chat/users/{id}/event`). Any type outside the reserved namespaces, with the sender's own fields (open by
 * design). Branded: the server builds one only by parsing (`CustomEvent.parse`), so a misspelt server event never
 * passes for a custom one at compile time.
 */
export const CustomEvent = z
  .looseObject({
    ...base,
    type: z
      .string()
      .min(1)
      .refine((t) => !isReservedEventType(t), 'this event type is reserved for the server'),
    user_id: z.string().optional(),
    parent_id: z.string().optional(),
  })
  .brand<'CustomEvent'>();
export type CustomEvent = z.infer<typeof CustomEvent>;

/** What goes on a socket: a server event or a custom one. */
export const WireEvent = z.union([ServerEvent, CustomEvent]);
export type WireEvent = z.infer<typeof WireEvent>;

/** Own-user fields that `health.check` carries. */
export type HealthCheckMe = z.infer<typeof OwnUser>;
