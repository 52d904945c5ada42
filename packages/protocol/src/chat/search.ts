import { z } from 'zod';
import { SafeRecord, SafeText } from '../input.js';
import { Channel, Message } from './models.js';

/** Largest page of `GET /chat/search`, and the deepest offset it pages to. */
export const SEARCH_LIMITS = { defaultLimit: 20, maxLimit: 100, maxOffset: 1000 } as const;

/**
 * `GET /chat/search?payload=<this as JSON>`: messages in the caller's channels matching `filter_conditions`
 * (a query-channels filter), by a full-text `query` and/or `message_filter_conditions`. Page by `offset` or by
 * the `next` an earlier answer gave, not both ("Cannot specify offset with next").
 */
export const SearchRequest = z.object({
  filter_conditions: SafeRecord,
  query: SafeText.max(1000).optional(),
  message_filter_conditions: SafeRecord.optional(),
  sort: z
    .array(
      z.object({
        field: z.enum(['relevance', 'created_at', 'updated_at']),
        direction: z.union([z.literal(1), z.literal(-1)]),
      }),
    )
    .optional(),
  limit: z.number().int().min(1).max(SEARCH_LIMITS.maxLimit).optional(),
  offset: z.number().int().min(0).max(SEARCH_LIMITS.maxOffset).optional(),
  next: z.string().optional(),
});
export type SearchRequest = z.infer<typeof SearchRequest>;

export const SearchResponse = z.object({
  /** Each message with the channel it is in. */
  results: z.array(z.object({ message: Message.extend({ channel: Channel.optional() }) })),
  /** A keyset cursor: pass it as `next` for the page after this one (absent on the last page). */
  next: z.string().optional(),
});
export type SearchResponse = z.infer<typeof SearchResponse>;
