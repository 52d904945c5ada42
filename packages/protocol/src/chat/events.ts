import { z } from 'zod';
import { ChatErrorBody } from '../errors.js';
import { Channel, ChannelMember, ChatUser, Message, OwnUser, Reaction } from './models.js';
import { ThreadUpdatedEvent } from './threads.js';

/**
 * Fields every event carries. `cid` is set on channel events; so is `seq`, the event's number in its channel's
 * sequence (consecutive per channel, in commit order; a message's `seq` is its `message.new` event's). Transient
 * events (typing, presence, health) and a user's notifications carry no `seq`.
 */
const base = {
  created_at: z.string(),
  cid: z.string().optional(),
  seq: z.number().int().positive().optional(),
  channel_id: z.string().optional(),
  channel_type: z.string().optional(),
  user: ChatUser.optional(),
};

export const HealthCheckEvent = z.looseObject({
  ...base,
  type: z.literal('health.check'),
  connection_id: z.string(),
  me: OwnUser.optional(),
});

export const MessageNewEvent = z.looseObject({
  ...base,
  type: z.literal('message.new'),
  cid: z.string(),
  message: Message,
  watcher_count: z.number().optional(),
  total_unread_count: z.number().optional(),
  unread_channels: z.number().optional(),
});

export const MessageUpdatedEvent = z.looseObject({
  ...base,
  type: z.enum(['message.updated', 'message.deleted', 'message.undeleted']),
  cid: z.string(),
  message: Message,
  hard_delete: z.boolean().optional(),
  deleted_for_me: z.boolean().optional(),
});

export const ReactionEvent = z.looseObject({
  ...base,
  type: z.enum(['reaction.new', 'reaction.updated', 'reaction.deleted']),
  cid: z.string(),
  message: Message,
  reaction: Reaction,
});

export const ChannelEvent = z.looseObject({
  ...base,
  type: z.enum([
    'channel.created',
    'channel.updated',
    'channel.deleted',
    'channel.truncated',
    'channel.hidden',
    'channel.visible',
    'channel.frozen',
    'channel.unfrozen',
  ]),
  cid: z.string(),
  channel: Channel.optional(),
  message: Message.optional(),
  clear_history: z.boolean().optional(),
});

/** A member's devices received messages up to `last_delivered_message_id` (delivery reports). */
export const DeliveredEvent = z.looseObject({
  ...base,
  type: z.literal('message.delivered'),
  cid: z.string(),
  last_delivered_message_id: z.string(),
  last_delivered_at: z.string(),
});

/** A viewer's `own_capabilities` changed (channel frozen or unfrozen, slow mode set); sent to each member. */
export const CapabilitiesChangedEvent = z.looseObject({
  ...base,
  type: z.literal('capabilities.changed'),
  cid: z.string(),
  own_capabilities: z.array(z.string()),
});

export const MemberEvent = z.looseObject({
  ...base,
  type: z.enum(['member.added', 'member.updated', 'member.removed']),
  cid: z.string(),
  member: ChannelMember.optional(),
});

export const NotificationEvent = z.looseObject({
  ...base,
  type: z.enum([
    'notification.message_new',
    'notification.added_to_channel',
    'notification.removed_from_channel',
    'notification.invited',
    'notification.invite_accepted',
    'notification.invite_rejected',
    'notification.mark_read',
    'notification.mark_unread',
    'notification.channel_deleted',
    'notification.channel_truncated',
    'notification.channel_mutes_updated',
  ]),
  channel: Channel.optional(),
  message: Message.optional(),
  member: ChannelMember.optional(),
  total_unread_count: z.number().optional(),
  unread_channels: z.number().optional(),
});

export const ReadEvent = z.looseObject({
  ...base,
  type: z.literal('message.read'),
  cid: z.string(),
  last_read_message_id: z.string().optional(),
  /** Set when a thread was read (its parent message id). */
  thread_id: z.string().optional(),
});

export const TypingEvent = z.looseObject({
  ...base,
  type: z.enum(['typing.start', 'typing.stop']),
  cid: z.string(),
  parent_id: z.string().optional(),
});

export const UserEvent = z.looseObject({
  ...base,
  type: z.enum([
    'user.updated',
    'user.presence.changed',
    'user.watching.start',
    'user.watching.stop',
    'user.deleted',
    'user.deactivated',
    'user.reactivated',
  ]),
  user: ChatUser,
});

/**
 * The only frame of a refused socket (bad api_key, missing/expired/bad token): the server sends it, then
 * closes with 1000. On code 40 the client refreshes its token and reconnects.
 */
export const ConnectionErrorEvent = z.looseObject({
  type: z.literal('connection.error'),
  error: ChatErrorBody,
  created_at: z.string(),
});

/** Events the client synthesises itself; never sent by the server. */
export const LocalConnectionEvent = z.looseObject({
  ...base,
  type: z.enum(['connection.changed', 'connection.recovered']),
  online: z.boolean().optional(),
});

/** Every event on the wire, a tagged union on `type`. */
export const ChatEvent = z.union([
  HealthCheckEvent,
  MessageNewEvent,
  MessageUpdatedEvent,
  ReactionEvent,
  ChannelEvent,
  CapabilitiesChangedEvent,
  MemberEvent,
  NotificationEvent,
  ReadEvent,
  DeliveredEvent,
  TypingEvent,
  UserEvent,
  ThreadUpdatedEvent,
  LocalConnectionEvent,
  ConnectionErrorEvent,
]);
export type ChatEvent = z.infer<typeof ChatEvent>;
export type ChatEventType = ChatEvent['type'];
export type EventOf<T extends ChatEventType> = Extract<ChatEvent, { type: T }>;

/** Own-user fields that `health.check` carries. */
export type HealthCheckMe = z.infer<typeof OwnUser>;
