import { z } from 'zod';
import { CHAT_LIMITS } from '../constants.js';
import { ChatUser, IsoDate, Reaction } from './models.js';

/**
 * Keyset-paged queries about one message: its edit history (`POST /chat/messages/history`) and its reactions
 * (`POST /chat/messages/{id}/reactions`). `next` / `prev` are opaque cursors from an earlier answer; a cursor only
 * continues the sort it came from.
 */

const direction = z.union([z.literal(1), z.literal(-1)]);
const eq = z.object({ $eq: z.string().min(1) });
const pageLimit = z.number().int().min(1).max(CHAT_LIMITS.maxQueryLimit);

/** Default page of both queries. */
export const MESSAGE_QUERY_DEFAULT_LIMIT = 25;

export const MessageHistoryRequest = z.object({
  filter: z.object({ message_id: eq }),
  /** Default: newest version first. */
  sort: z
    .array(z.object({ field: z.literal('message_updated_at'), direction }))
    .max(1)
    .optional(),
  limit: pageLimit.optional(),
  next: z.string().optional(),
  prev: z.string().optional(),
});
export type MessageHistoryRequest = z.infer<typeof MessageHistoryRequest>;

/** One earlier version of a message: what it said and who made it when (the author, then each editor). */
export const MessageHistoryEntry = z.object({
  message_id: z.string(),
  text: z.string(),
  attachments: z.array(z.unknown()),
  message_updated_by_id: z.string().optional(),
  message_updated_by: ChatUser.optional(),
  message_updated_at: IsoDate,
  /**
   * The entry is a moderator's removal of the message (by `message_updated_by_id`, at `message_updated_at`); its
   * text is the removal text, never the removed words.
   */
  removed_by_moderator: z.boolean().optional(),
});
export type MessageHistoryEntry = z.infer<typeof MessageHistoryEntry>;

export const MessageHistoryResponse = z.object({
  message_history: z.array(MessageHistoryEntry),
  next: z.string().optional(),
  prev: z.string().optional(),
});
export type MessageHistoryResponse = z.infer<typeof MessageHistoryResponse>;

export const QueryReactionsRequest = z.object({
  filter: z.object({ type: eq.optional(), user_id: eq.optional() }).optional(),
  /** Default: newest first. */
  sort: z
    .array(z.object({ field: z.literal('created_at'), direction }))
    .max(1)
    .optional(),
  limit: pageLimit.optional(),
  next: z.string().optional(),
});
export type QueryReactionsRequest = z.infer<typeof QueryReactionsRequest>;

export const QueryReactionsResponse = z.object({
  reactions: z.array(Reaction),
  /** Pass as `next` for the page after this one (absent on the last page). */
  next: z.string().optional(),
});
export type QueryReactionsResponse = z.infer<typeof QueryReactionsResponse>;
