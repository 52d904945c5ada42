import { z } from 'zod';
import { CHAT_LIMITS } from '../constants.js';
import { refineSafeJson, RequestDate, SafeRecord, SafeText } from '../input.js';

/** Channel types and ids: letters, digits, `!`, `-` and `_`, at most 64 characters. */
export const ChannelIdSchema = z
  .string()
  .min(1)
  .max(CHAT_LIMITS.maxChannelIdLength)
  .regex(/^[\w!-]+$/, 'may only contain letters, digits, "!", "-" and "_"');

/** Pagination of messages inside a channel query (chat-spec §7 POST /query). */
export const MessagePagination = z.object({
  limit: z.number().int().min(0).max(CHAT_LIMITS.maxQueryLimit).optional(),
  id_lt: z.string().optional(),
  id_gt: z.string().optional(),
  id_lte: z.string().optional(),
  id_gte: z.string().optional(),
  id_around: z.string().optional(),
  created_at_around: RequestDate.optional(),
});
export type MessagePagination = z.infer<typeof MessagePagination>;

/** `POST /chat/channels/{type}/{id}/query` (and `/chat/channels/{type}/query` for distinct channels). */
export const QueryChannelRequest = z.object({
  data: z
    .looseObject({
      members: z.array(SafeText).optional(),
      team: SafeText.optional(),
      name: SafeText.optional(),
    })
    .superRefine(refineSafeJson)
    .optional(),
  state: z.boolean().optional(),
  watch: z.boolean().optional(),
  presence: z.boolean().optional(),
  messages: MessagePagination.optional(),
  members: z
    .object({ limit: z.number().int().min(0).optional(), offset: z.number().int().min(0).optional() })
    .optional(),
  watchers: z.object({ limit: z.number().int().min(0).optional() }).optional(),
});
export type QueryChannelRequest = z.infer<typeof QueryChannelRequest>;

/** Fields query channels sorts by. */
export const ChannelSortField = z.enum([
  'last_message_at',
  'created_at',
  'updated_at',
  'name',
  'cid',
  'member_count',
  'pinned_at',
  'archived_at',
  'has_unread',
  'unread_count',
]);
export type ChannelSortField = z.infer<typeof ChannelSortField>;

/** `POST /chat/channels` (query channels). */
export const QueryChannelsRequest = z.object({
  /** Checked field by field on the server (allow-listed fields, typed values, depth and size limits). */
  filter_conditions: SafeRecord.optional(),
  sort: z
    .array(z.object({ field: ChannelSortField, direction: z.union([z.literal(1), z.literal(-1)]) }))
    .optional(),
  limit: z.number().int().min(0).max(CHAT_LIMITS.maxQueryLimit).optional(),
  offset: z.number().int().min(0).optional(),
  message_limit: z.number().int().min(0).max(CHAT_LIMITS.maxQueryLimit).optional(),
  member_limit: z.number().int().min(0).optional(),
  state: z.boolean().optional(),
  watch: z.boolean().optional(),
  presence: z.boolean().optional(),
});
export type QueryChannelsRequest = z.infer<typeof QueryChannelsRequest>;

/** The message part of `POST /chat/channels/{type}/{id}/message`. */
export const NewMessage = z.looseObject({
  id: SafeText.min(1).max(255).optional(),
  text: SafeText.optional(),
  type: z.enum(['regular', 'system']).optional(),
  parent_id: z.string().optional(),
  show_in_channel: z.boolean().optional(),
  quoted_message_id: z.string().optional(),
  mentioned_users: z.array(z.string()).optional(),
  attachments: z.array(SafeRecord).max(CHAT_LIMITS.maxAttachments).optional(),
  silent: z.boolean().optional(),
  poll_id: z.string().optional(),
});
export type NewMessage = z.infer<typeof NewMessage>;

export const SendMessageRequest = z.object({
  message: NewMessage,
  skip_push: z.boolean().optional(),
  skip_enrich_url: z.boolean().optional(),
});
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

/**
 * Where a client is in the event stream: per channel the last `seq` it has, and the id of the last of its own
 * notifications it has (`notifications`, from a previous sync answer). Answers of `POST /chat/sync` carry the
 * cursor to continue from.
 */
export const SyncCursor = z.object({
  channels: z
    .record(z.string().max(255), z.number().int().min(0))
    .refine((c) => Object.keys(c).length <= CHAT_LIMITS.maxQueryLimit, {
      message: `at most ${CHAT_LIMITS.maxQueryLimit} channels`,
    }),
  notifications: z.number().int().min(0).optional(),
});
export type SyncCursor = z.infer<typeof SyncCursor>;

/**
 * `POST /chat/sync`: the events after `cursor` (channels named in `channel_cids` without a cursor entry start after
 * `last_sync_at`, which the spec's clients send alone).
 */
export const SyncRequest = z
  .object({
    channel_cids: z.array(z.string()).max(CHAT_LIMITS.maxQueryLimit),
    last_sync_at: RequestDate.optional(),
    cursor: SyncCursor.optional(),
  })
  .refine((r) => r.last_sync_at !== undefined || r.cursor !== undefined, {
    message: 'sync needs a cursor or last_sync_at',
    path: ['cursor'],
  });
export type SyncRequest = z.infer<typeof SyncRequest>;
