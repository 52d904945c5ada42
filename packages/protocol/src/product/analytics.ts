import { z } from 'zod';

/**
 * Analytics events of product-spec §7 ("chat opened", "chat message sent"). They carry who, where and when, never
 * what was written: organization, case plans, user, channel, time.
 */
export const AnalyticsEventName = z.enum(['chat_opened', 'chat_message_sent']);
export type AnalyticsEventName = z.infer<typeof AnalyticsEventName>;

/** One event as the sinks receive it (and as the HTTP sink posts it, in `{"events": [...]}` batches). */
export const AnalyticsEvent = z.strictObject({
  name: AnalyticsEventName,
  organization: z.string(),
  /** The case plans of the chat (its custom `caseplans`), possibly none. */
  caseplans: z.array(z.string()),
  user: z.string(),
  /** The chat's cid (`messaging:<id>`). */
  channel: z.string(),
  /** ISO 8601. */
  at: z.string(),
});
export type AnalyticsEvent = z.infer<typeof AnalyticsEvent>;

/** The body the HTTP sink posts to `ANALYTICS_HTTP_URL`. */
export const AnalyticsBatch = z.strictObject({ events: z.array(AnalyticsEvent) });
export type AnalyticsBatch = z.infer<typeof AnalyticsBatch>;

/**
 * `POST /api/analytics/chat-opened`: the web reports that the signed-in user opened a chat. Only the chat's cid:
 * the server finds its organization and case plans itself, and records nothing for a chat the user cannot read.
 */
export const ChatOpenedRequest = z.strictObject({
  cid: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-z0-9_-]+:\S+$/, 'a channel cid (type:id)'),
});
export type ChatOpenedRequest = z.infer<typeof ChatOpenedRequest>;

/** Answer of `POST /api/analytics/chat-opened`: whether an event was recorded (not for chats outside any organization). */
export const ChatOpenedResponse = z.strictObject({ recorded: z.boolean() });
export type ChatOpenedResponse = z.infer<typeof ChatOpenedResponse>;

/** Weeks `GET /api/organizations/{id}/analytics` covers by default, and at most. */
export const ANALYTICS_DEFAULT_WEEKS = 8;
export const ANALYTICS_MAX_WEEKS = 52;

export const AnalyticsQuery = z.strictObject({
  weeks: z.coerce.number().int().min(1).max(ANALYTICS_MAX_WEEKS).default(ANALYTICS_DEFAULT_WEEKS),
});
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

/** One week of one case plan (`caseplan` null: chats tied to no case plan). */
export const AnalyticsWeekRow = z.strictObject({
  /** Monday of the ISO week, UTC (`YYYY-MM-DD`). */
  week: z.string(),
  caseplan: z.string().nullable(),
  caseplanName: z.string().nullable(),
  chatsOpened: z.number().int(),
  messagesSent: z.number().int(),
});
export type AnalyticsWeekRow = z.infer<typeof AnalyticsWeekRow>;

/** `GET /api/organizations/{id}/analytics?weeks=`: newest week first, then by case plan name. */
export const AnalyticsReport = z.strictObject({
  organization: z.string(),
  /** First day counted (Monday, `YYYY-MM-DD`). */
  from: z.string(),
  weeks: z.number().int(),
  rows: z.array(AnalyticsWeekRow),
});
export type AnalyticsReport = z.infer<typeof AnalyticsReport>;
