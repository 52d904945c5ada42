import { z } from 'zod';
import { CHAT_LIMITS, CHAT_TIMING } from '../constants.js';
import { SafeRecord, SafeText } from '../input.js';
import { NewMessage } from './requests.js';

/**
 * Request bodies and query strings of the chat HTTP API beyond channel queries and sends (requests.ts). The server
 * validates with these and docs/chat-api.md is generated from them.
 */

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1');
const count = z.coerce.number().int().min(0);

/** `set` / `unset` partial updates (channels, messages, threads, members). */
export const PartialUpdateRequest = z.object({
  set: SafeRecord.optional(),
  unset: z.array(z.string()).optional(),
});

export const ReadRequest = z.looseObject({
  message_id: z.string().optional(),
  thread_id: z.string().optional(),
});
export const UnreadRequest = z.looseObject({ message_id: z.string() });
export const HideRequest = z.looseObject({ clear_history: z.boolean().optional() });
export const ChannelEventRequest = z.object({
  event: z.looseObject({ type: z.string().min(1).max(64), parent_id: z.string().optional() }),
});

const MemberIds = z.array(z.union([z.string(), z.object({ user_id: z.string() })]));
/** `POST /chat/channels/{type}/{id}`: member, moderator, role and invite changes. */
export const MemberChangesRequest = z.looseObject({
  add_members: MemberIds.optional(),
  remove_members: z.array(z.string()).optional(),
  invites: MemberIds.optional(),
  accept_invite: z.boolean().optional(),
  reject_invite: z.boolean().optional(),
  add_moderators: z.array(z.string()).optional(),
  demote_moderators: z.array(z.string()).optional(),
  assign_roles: z.array(z.object({ user_id: z.string(), channel_role: z.string() })).optional(),
});
export const MuteChannelRequest = z.object({
  channel_cid: z.string().optional(),
  channel_cids: z.array(z.string()).optional(),
  /** Milliseconds (mute only), at most 100 years. */
  expiration: z.number().int().min(1).max(CHAT_LIMITS.maxMuteExpirationMs).optional(),
});

export const UpdateMessageRequest = z.object({
  message: NewMessage.omit({ id: true, parent_id: true, type: true }),
});
export const DeleteMessageQuery = z.looseObject({ hard: flag, delete_for_me: flag });
export const RepliesQuery = z.looseObject({
  limit: count.max(CHAT_LIMITS.maxQueryLimit).optional(),
  id_lt: z.string().optional(),
  id_gt: z.string().optional(),
  id_lte: z.string().optional(),
  id_gte: z.string().optional(),
  id_around: z.string().optional(),
  sort: z.string().optional(),
});
export const ReactionsQuery = z.looseObject({
  /** At most 300 a page (larger values are capped). */
  limit: count.optional(),
  offset: count.optional(),
  type: z.string().optional(),
  /** The `next` of an earlier page (not with `offset`). */
  next: z.string().optional(),
});
export const SendReactionRequest = z.object({
  reaction: z.looseObject({
    type: z.string().min(1).max(64),
    score: z.number().int().min(1).max(100).optional(),
  }),
  enforce_unique: z.boolean().optional(),
  skip_push: z.boolean().optional(),
});
export type SendReactionRequest = z.infer<typeof SendReactionRequest>;

export const FlagRequest = z.looseObject({
  target_message_id: z.string().min(1),
  reason: z.string().max(1000).optional(),
});
export const MessageIdsQuery = z.looseObject({ ids: z.string().min(1) });
export const PinnedMessagesQuery = z.looseObject({ limit: count.optional(), offset: count.optional() });
/** `POST /chat/channels/delivered`: the newest delivered message per channel (at most 100). */
export const DeliveredRequest = z.object({
  latest_delivered_messages: z.array(z.object({ cid: z.string(), id: z.string() })).max(100),
});
export const UnreadBatchRequest = z.object({ user_ids: z.array(z.string()).min(1).max(100) });

/** Fields a user query sorts by. */
export const UserSortField = z.enum(['name', 'id', 'created_at', 'last_active']);
export type UserSortField = z.infer<typeof UserSortField>;

export const UserQueryPayload = z.object({
  /** `id`, `name`, `role` ($eq, $in, $autocomplete); checked on the server like every filter. */
  filter_conditions: SafeRecord.optional(),
  sort: z
    .array(z.object({ field: UserSortField, direction: z.union([z.literal(1), z.literal(-1)]) }))
    .optional(),
  limit: z.number().int().min(0).max(100).optional(),
  offset: z.number().int().min(0).optional(),
});
const UserShape = z.looseObject({ id: SafeText.min(1).max(255), name: SafeText.optional() });
export const UpsertUsersRequest = z.object({
  users: z.union([z.record(z.string(), UserShape), z.array(UserShape)]),
});

export const GetThreadQuery = z.looseObject({
  participant_limit: z.coerce.number().int().min(0).max(100).optional(),
  reply_limit: z.coerce.number().int().min(0).max(100).optional(),
  watch: z.enum(['true', 'false', '1', '0']).optional(),
});

export const LongPollQuery = z.looseObject({
  connection_id: z.string().optional(),
  /** How long to wait for events, in ms (default and maximum: the 30 s long-poll timeout). */
  timeout: z.coerce.number().int().min(0).max(CHAT_TIMING.longPollTimeoutMs).optional(),
});
export const GuestRequest = z.object({
  user: z.looseObject({ id: SafeText.min(1).max(255), name: SafeText.optional() }),
});
export const DeviceRequest = z.object({
  id: SafeText.min(1).max(255),
  push_provider: z.enum(['firebase', 'apn', 'huawei', 'xiaomi']),
  push_provider_name: SafeText.max(255).optional(),
  user_id: SafeText.optional(),
});
export type DeviceRequest = z.infer<typeof DeviceRequest>;
export const DeviceQuery = z.looseObject({ id: z.string().optional(), user_id: z.string().optional() });
export const RateLimitsQuery = z.looseObject({ endpoints: z.string().optional() });
