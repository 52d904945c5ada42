import type { AnalyticsEvent } from '@caseroom/protocol';

/**
 * Where analytics events go. The database sink is always on (the organization admins' page reads it); the HTTP sink
 * forwards the same events to an external tool when `ANALYTICS_HTTP_URL` is set. Another tool is another sink.
 */
export interface AnalyticsSink {
  /** For log lines. */
  readonly name: string;
  /** Takes events (the HTTP sink queues them and answers at once). */
  record(events: readonly AnalyticsEvent[]): Promise<void>;
  /** Delivers what is queued and stops (server shutdown). */
  close(): Promise<void>;
}
