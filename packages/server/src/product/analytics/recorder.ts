import type { AnalyticsEvent, AnalyticsEventName } from '@caseroom/protocol';
import type { MessageNewHook, ReadableChannel } from '../../chat/server-api.js';
import type { Platform } from '../../platform/context.js';
import { HttpOut } from '../../platform/http-out/index.js';
import { databaseSink } from './database-sink.js';
import { HttpSink } from './http-sink.js';
import type { AnalyticsSink } from './sink.js';

const stringList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** What an event needs to know about its chat: the organization (channel `team`) and its case plans. */
type ChatFacts = { cid: string; team?: string | undefined; custom: Record<string, unknown> };

/**
 * The event for `name` in chat `channel` by `user`, or undefined for a chat outside any organization (the
 * product's chats always have one: its `team`). Organization and case plans come from the channel, never from a
 * client.
 */
export function eventFor(
  name: AnalyticsEventName,
  channel: ChatFacts,
  user: string,
  at: Date,
): AnalyticsEvent | undefined {
  if (!channel.team) return undefined;
  return {
    name,
    organization: channel.team,
    caseplans: stringList(channel.custom.caseplans),
    user,
    channel: channel.cid,
    at: at.toISOString(),
  };
}

/** Records analytics events to every sink. */
export interface Analytics {
  readonly sinks: readonly AnalyticsSink[];
  /** "Chat opened" by `userId` in a channel they may read (the caller checked). Answers whether it was recorded. */
  chatOpened(channel: ReadableChannel, userId: string): Promise<boolean>;
  /** "Chat message sent", from chat's `onMessageNew` hook (system messages and server messages without a user skip). */
  messageSent(event: MessageNewHook): Promise<void>;
  close(): Promise<void>;
}

/** The database sink, and the HTTP sink when `ANALYTICS_HTTP_URL` is set. */
export function createAnalytics(platform: Platform): Analytics {
  const { config, db, log } = platform;
  const sinks: AnalyticsSink[] = [databaseSink(db)];
  if (config.analytics.httpUrl) {
    sinks.push(
      new HttpSink(new HttpOut({ ...config.httpOut, userAgent: 'Caseroom/1.0 (analytics)' }), log, {
        url: config.analytics.httpUrl,
        token: config.analytics.httpToken,
        batch: config.analytics.httpBatch,
        flushMs: config.analytics.httpFlushMs,
      }),
    );
  }
  const record = async (event: AnalyticsEvent | undefined) => {
    if (!event) return false;
    // The database first: it is the record; a failure there is the caller's error.
    const [database, ...others] = sinks;
    await database?.record([event]);
    for (const sink of others) {
      await sink
        .record([event])
        .catch((err: unknown) => log.warn({ err, sink: sink.name }, 'analytics sink failed'));
    }
    return true;
  };
  return {
    sinks,
    chatOpened: (channel, userId) => record(eventFor('chat_opened', channel, userId, new Date())),
    async messageSent({ cid, channel, message }) {
      const userId = message.user?.id ?? message.user_id;
      if (!userId || message.type === 'system') return;
      await record(eventFor('chat_message_sent', { cid, ...channel }, userId, new Date(message.created_at)));
    },
    async close() {
      await Promise.all(sinks.map((s) => s.close()));
    },
  };
}
