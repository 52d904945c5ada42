import { z } from 'zod';

/** Time as an ISO-8601 string on the wire. */
export const IsoDate = z.string();

/** Custom data a client may attach to users, channels and messages. */
export const CustomData = z.record(z.string(), z.unknown());

export const ChatUser = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  image: z.string().optional(),
  role: z.string().optional(),
  language: z.string().optional(),
  online: z.boolean().optional(),
  last_active: IsoDate.optional(),
  created_at: IsoDate.optional(),
  updated_at: IsoDate.optional(),
  /** Set while the user is deactivated (server or admin). */
  deactivated_at: IsoDate.optional(),
  /** Set once the user is (soft) deleted. */
  deleted_at: IsoDate.optional(),
  /** Organizations (teams) where this user is a client. */
  clientOf: z.array(z.string()).optional(),
  /** Organizations (teams) where this user is a guest. */
  guestOf: z.array(z.string()).optional(),
});
export type ChatUser = z.infer<typeof ChatUser>;

/** The connected user, with unread totals (sent in `health.check`). */
export const OwnUser = ChatUser.extend({
  total_unread_count: z.number(),
  unread_channels: z.number(),
});
export type OwnUser = z.infer<typeof OwnUser>;

export const MessageType = z.enum(['regular', 'reply', 'system', 'error', 'deleted', 'ephemeral']);
export type MessageType = z.infer<typeof MessageType>;

/** A reaction; custom fields a client set on it ride at the top level. */
export const Reaction = z.looseObject({
  type: z.string(),
  score: z.number(),
  user_id: z.string(),
  user: ChatUser.optional(),
  message_id: z.string(),
  created_at: IsoDate,
  updated_at: IsoDate.optional(),
});
export type Reaction = z.infer<typeof Reaction>;

export const ReactionGroup = z.object({
  count: z.number(),
  sum_scores: z.number(),
  first_reaction_at: IsoDate,
  last_reaction_at: IsoDate,
});

/** What every client shows in place of a message a moderator removed (issue 13 §3). */
export const MESSAGE_REMOVED_TEXT = 'Message removed by a moderator';

/**
 * Set on a message another member (a moderator) removed: `action: 'removed'`. The message is `type: 'deleted'`,
 * its content gone, and its `text` is {@link MESSAGE_REMOVED_TEXT}.
 */
export const ModerationDetails = z.looseObject({ action: z.string() });
export type ModerationDetails = z.infer<typeof ModerationDetails>;

/** True when a moderator removed the message (it shows {@link MESSAGE_REMOVED_TEXT}). */
export function removedByModerator(message: {
  moderation_details?: { action: string } | undefined;
}): boolean {
  return message.moderation_details?.action === 'removed';
}

const messageShape = {
  id: z.string(),
  cid: z.string(),
  /** The message's place in its channel: the `seq` of its `message.new` event (server order, every reader's). */
  seq: z.number().int().optional(),
  text: z.string(),
  type: MessageType,
  user: ChatUser.optional(),
  user_id: z.string().optional(),
  parent_id: z.string().optional(),
  show_in_channel: z.boolean().optional(),
  quoted_message_id: z.string().optional(),
  mentioned_users: z.array(ChatUser),
  attachments: z.array(CustomData),
  silent: z.boolean(),
  pinned: z.boolean(),
  pinned_at: IsoDate.nullable().optional(),
  pin_expires: IsoDate.nullable().optional(),
  /** Who pinned it (while pinned). */
  pinned_by: ChatUser.optional(),
  reply_count: z.number(),
  reaction_counts: z.record(z.string(), z.number()),
  reaction_scores: z.record(z.string(), z.number()),
  reaction_groups: z.record(z.string(), ReactionGroup),
  latest_reactions: z.array(Reaction),
  own_reactions: z.array(Reaction),
  created_at: IsoDate,
  updated_at: IsoDate,
  deleted_at: IsoDate.optional(),
  /** The viewer deleted it for themselves only (`delete_for_me`). */
  deleted_for_me: z.boolean().optional(),
  message_text_updated_at: IsoDate.optional(),
  moderation_details: ModerationDetails.optional(),
};

export const Message = z.looseObject({
  ...messageShape,
  quoted_message: z.looseObject(messageShape).optional(),
});
export type Message = z.infer<typeof Message>;

export const ChannelMember = z.object({
  user_id: z.string(),
  user: ChatUser.optional(),
  channel_role: z.string(),
  created_at: IsoDate,
  updated_at: IsoDate,
  invited: z.boolean().optional(),
  invite_accepted_at: IsoDate.optional(),
  invite_rejected_at: IsoDate.optional(),
  pinned_at: IsoDate.nullable().optional(),
  archived_at: IsoDate.nullable().optional(),
  banned: z.boolean().optional(),
  shadow_banned: z.boolean().optional(),
});
export type ChannelMember = z.infer<typeof ChannelMember>;

/** The channel type's settings as a channel carries them (`commands` resolved to the registered ones). */
export const ChannelConfig = z.object({
  name: z.string(),
  commands: z.array(
    z.object({
      name: z.string(),
      args: z.string().optional(),
      description: z.string().optional(),
      set: z.string().optional(),
    }),
  ),
  url_enrichment: z.boolean(),
  typing_events: z.boolean(),
  read_events: z.boolean(),
  connect_events: z.boolean(),
  replies: z.boolean(),
  reactions: z.boolean(),
  uploads: z.boolean(),
  search: z.boolean(),
  mutes: z.boolean(),
  max_message_length: z.number(),
});
export type ChannelConfig = z.infer<typeof ChannelConfig>;

/** Channel data as presented to one viewer. Custom fields (caseplans, organizations, hasClient, hasGuest) sit at the top level. */
export const Channel = z.looseObject({
  id: z.string(),
  type: z.string(),
  cid: z.string(),
  team: z.string().optional(),
  name: z.string().optional(),
  created_by: ChatUser.optional(),
  created_at: IsoDate,
  updated_at: IsoDate,
  last_message_at: IsoDate.optional(),
  member_count: z.number(),
  frozen: z.boolean(),
  disabled: z.boolean().optional(),
  hidden: z.boolean().optional(),
  /** The viewer muted the channel (a timed mute ends by itself). */
  muted: z.boolean().optional(),
  /** The viewer blocked the other member of this two-person channel. */
  blocked: z.boolean().optional(),
  cooldown: z.number().optional(),
  truncated_at: IsoDate.optional(),
  /** The `seq` of the channel's last event when this was read: a client's starting point in the stream. */
  last_seq: z.number().int().min(0).optional(),
  config: ChannelConfig,
  own_capabilities: z.array(z.string()),
});
export type Channel = z.infer<typeof Channel>;

export const ReadState = z.object({
  user: ChatUser,
  last_read: IsoDate,
  last_read_message_id: z.string().optional(),
  unread_messages: z.number(),
  last_delivered_at: IsoDate.optional(),
  last_delivered_message_id: z.string().optional(),
});
export type ReadState = z.infer<typeof ReadState>;

/** One channel with its state, as answered by query/watch. */
export const ChannelState = z.object({
  channel: Channel,
  messages: z.array(Message),
  pinned_messages: z.array(Message),
  members: z.array(ChannelMember),
  membership: ChannelMember.optional(),
  read: z.array(ReadState),
  watcher_count: z.number(),
  watchers: z.array(ChatUser).optional(),
});
export type ChannelState = z.infer<typeof ChannelState>;
