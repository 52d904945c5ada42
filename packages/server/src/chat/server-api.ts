import type {
  Channel,
  ChatUser,
  Message,
  NewMessage,
  PermissionAction,
  RuleResource,
} from '@caseroom/protocol';
import type { Queryable, Tx } from '../platform/db.js';
import type { ChatInTx } from './server-tx.js';

/** A user as the product upserts it: id plus any of name, image, role and custom fields (clientOf, guestOf). */
export type ChatUserInput = { id: string; name?: string; image?: string | null; role?: string } & Record<
  string,
  unknown
>;

/** Channel data on create: members, team and custom fields (caseplans, organizations, hasClient, hasGuest). */
export type ChannelInput = { members?: string[]; team?: string; name?: string; frozen?: boolean } & Record<
  string,
  unknown
>;

/** What `onMessageNew` hooks receive, after commit. */
export interface MessageNewHook {
  cid: string;
  channel: { team?: string; custom: Record<string, unknown> };
  message: Message;
}

/**
 * What `onMessageRemoved` hooks receive, inside the removal's transaction: a member removed another member's message
 * (`removedById`); it shows "Message removed by a moderator" (users never hard-delete others' messages).
 */
export interface MessageRemovedHook {
  cid: string;
  channel: { team?: string; custom: Record<string, unknown> };
  messageId: string;
  authorId: string | null;
  removedById: string;
}

/**
 * A permission rule for one channel type, installed by the server (kept as a built-in rule: the permissions API can
 * neither change nor delete it). Priority up to 999: a Deny at 999 overrides even "Allow all" for admins.
 */
export interface ChannelTypeRule {
  id: string;
  name: string;
  action: PermissionAction;
  priority: number;
  roles: string[];
  resources: RuleResource[];
  channelType: string;
}

/**
 * The chat service's server-side API, with full rights (like a client holding the API secret).
 * The product module drives chat only through this. Each call is its own transaction, unless the API was bound to
 * the caller's with {@link ChatServerApi.within}.
 */
export interface ChatServerApi {
  /** Mints a chat JWT (HS256 with CHAT_API_SECRET, claim `user_id`). */
  createToken(userId: string, expiresInSeconds?: number): Promise<string>;
  upsertUsers(users: ChatUserInput[]): Promise<ChatUser[]>;
  /**
   * Revokes the user's chat tokens issued so far and closes their sockets on every node (the product calls it
   * when a session ends). Recorded in the database: a restarted node and a node that missed the bus refuse them too.
   */
  disconnectUser(userId: string): Promise<void>;
  /** Creates the channel (by id, or by distinct member list when `id` is undefined) or returns the existing one. */
  getOrCreateChannel(
    type: string,
    id: string | undefined,
    data: ChannelInput,
    createdById: string,
  ): Promise<Channel>;
  /** Partial update of channel data (custom fields, frozen, cooldown, name). Emits `channel.updated`. */
  updateChannelPartial(cid: string, set: Record<string, unknown>, unset?: string[]): Promise<Channel>;
  addMembers(cid: string, userIds: string[]): Promise<void>;
  /**
   * Makes existing members channel moderators (role `channel_moderator`: slow mode, freeze, anyone's messages),
   * as `add_moderators` on `POST /channels/{type}/{id}` does. Idempotent.
   */
  addModerators(cid: string, userIds: string[]): Promise<void>;
  removeMembers(cid: string, userIds: string[]): Promise<void>;
  /** Channels matching a query-channels filter, as seen by the server (no capabilities). */
  queryChannels(filter: Record<string, unknown>, limit?: number): Promise<Channel[]>;
  sendMessage(cid: string, userId: string, message: NewMessage): Promise<Message>;
  /** Hook run after a message commits (the product records statistics from it). */
  onMessageNew(hook: (event: MessageNewHook) => void | Promise<void>): void;
  /**
   * Marks channel fields (custom data such as `caseplans`, `organizations`, `hasClient`, `hasGuest`) as
   * server-only: users may then neither create channels with them nor change them. `team` always is.
   */
  protectChannelFields(fields: string[]): void;
  /**
   * This API bound to the caller's transaction `q`: chat's writes go in with the caller's, and their events are
   * sent by `publish()` once the caller committed (see server-tx.ts; `txWithChat` does both, with retries).
   */
  within(q: Tx): ChatInTx;
  /** Installs or updates per-type permission rules (idempotent; every node at start). */
  installRules(rules: readonly ChannelTypeRule[]): Promise<void>;
  /**
   * Registers a check for user ids that `POST /chat/guest` may never claim (the product's accounts: a guest token
   * for such an id would let a stranger act as that person once the product creates their chat user).
   */
  reserveUserIds(isReserved: (id: string) => Promise<boolean>): void;
  /** Hook run inside the transaction of a removal of someone else's message (the product audits it). */
  onMessageRemoved(hook: (q: Queryable, event: MessageRemovedHook) => Promise<void>): void;
  /**
   * The channel's team and custom data when user `userId` may read it now (chat's one read rule, as every chat
   * read path), else undefined: missing, deleted, not a reader, or the user deactivated. The product asks before it
   * records something about a chat a user names (analytics "chat opened").
   */
  readableChannel(cid: string, userId: string): Promise<ReadableChannel | undefined>;
}

/** What {@link ChatServerApi.readableChannel} answers. */
export interface ReadableChannel {
  cid: string;
  team: string | undefined;
  custom: Record<string, unknown>;
}
