import type { ChannelTypeSettings, PermissionRule } from '@caseroom/protocol';

/** Rows of the chat tables as the database answers them (see migrations/0002_chat.sql). */

export interface UserRow {
  id: string;
  name: string | null;
  image: string | null;
  role: string;
  language: string | null;
  custom: Record<string, unknown>;
  last_active: Date | null;
  deactivated_at: Date | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** Computed by the loaders: a live connection on any node. */
  online?: boolean;
}

export interface ChannelRow {
  cid: string;
  type: string;
  id: string;
  team: string | null;
  name: string | null;
  custom: Record<string, unknown>;
  frozen: boolean;
  disabled: boolean;
  cooldown: number;
  member_hash: string | null;
  created_by_id: string | null;
  created_at: Date;
  updated_at: Date;
  last_message_at: Date | null;
  truncated_at: Date | null;
  deleted_at: Date | null;
  /** Messages so far that count as unread (see store/channels `unreadSql`). */
  unread_seq: number;
  /** The channel's event counter: the `seq` of its last recorded event (realtime/outbox numbers events from it). */
  last_seq: number;
  /** Computed by the loaders. */
  member_count: number;
  /** The channel type's stored settings (differences over the defaults), joined by the loaders. */
  config: Partial<ChannelTypeSettings>;
  /** Every registered command (`/chat/commands`), joined by the loaders; the type's settings pick from them. */
  commands?: Array<{ name: string; args: string; description: string; set: string }>;
}

export interface ChannelTypeRow {
  name: string;
  config: Partial<ChannelTypeSettings>;
  builtin: boolean;
  created_at: Date;
  updated_at: Date;
}

export type PermissionRow = Omit<PermissionRule, 'created_at' | 'updated_at'> & {
  created_at: Date;
  updated_at: Date;
};

export interface RoleRow {
  name: string;
  scope: 'global' | 'channel';
  custom: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface MemberRow {
  cid: string;
  user_id: string;
  channel_role: string;
  invited: boolean;
  invite_accepted_at: Date | null;
  invite_rejected_at: Date | null;
  banned: boolean;
  shadow_banned: boolean;
  last_read: Date;
  last_read_message_id: string | null;
  unread_count: number;
  last_delivered_at: Date | null;
  last_delivered_message_id?: string | null;
  hidden: boolean;
  /** The member blocked the other member of this two-person channel. */
  blocked?: boolean;
  muted: boolean;
  mute_expires: Date | null;
  history_cleared_at: Date | null;
  pinned_at: Date | null;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ReactionGroupRow {
  count: number;
  sum_scores: number;
  first_reaction_at: string;
  last_reaction_at: string;
}

export interface MessageRow {
  id: string;
  seq: number;
  cid: string;
  user_id: string | null;
  type: string;
  text: string;
  parent_id: string | null;
  show_in_channel: boolean;
  quoted_message_id: string | null;
  mentioned_users: string[];
  attachments: Record<string, unknown>[];
  custom: Record<string, unknown>;
  silent: boolean;
  poll_id: string | null;
  pinned: boolean;
  pinned_at: Date | null;
  pinned_by_id: string | null;
  pin_expires: Date | null;
  reply_count: number;
  reaction_groups: Record<string, ReactionGroupRow>;
  created_at: Date;
  updated_at: Date;
  message_text_updated_at: Date | null;
  deleted_at: Date | null;
  /** The type before a soft delete (undelete restores it). */
  deleted_type?: string | null;
  /** Deleted by another member (a moderator): shows "Message removed by a moderator". */
  removed_by_moderator?: boolean;
}

export interface ReactionRow {
  message_id: string;
  user_id: string;
  type: string;
  score: number;
  custom: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}
