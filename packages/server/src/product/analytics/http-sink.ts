import type { AnalyticsBatch, AnalyticsEvent } from '@caseroom/protocol';
import type { HttpOut } from '../../platform/http-out/index.js';
import type { Logger } from '../../platform/logger.js';
import type { AnalyticsSink } from './sink.js';

export interface HttpSinkOptions {
  url: string;
  token?: string | undefined;
  /** Events per POST at most. */
  batch: number;
  /** How long an event waits for its batch to fill before the batch goes anyway. */
  flushMs: number;
  /** Tries per batch (the first and its retries, 1 s, 2 s, 4 s ... apart). */
  attempts?: number;
  /** Events kept waiting at most; older ones are dropped (logged) when an external tool is down for long. */
  maxQueued?: number;
}

/**
 * The HTTP sink: `POST <ANALYTICS_HTTP_URL>` with `{"events": [...]}` (protocol `AnalyticsBatch`), JSON, and
 * `Authorization: Bearer <ANALYTICS_HTTP_TOKEN>` when set, through `platform/http-out` (the SSRF-safe client: a
 * private address must be allow-listed with `HTTP_OUT_ALLOW`). Any 2xx is delivered; other answers and network
 * failures are retried with backoff, then the batch is dropped with a log line. Delivery is at most once per node and
 * in memory: the database sink keeps the full record.
 */
export class HttpSink implements AnalyticsSink {
  readonly name = 'http';
  private queue: AnalyticsEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly http: HttpOut,
    private readonly log: Logger,
    private readonly opts: HttpSinkOptions,
  ) {}

  async record(events: readonly AnalyticsEvent[]): Promise<void> {
    if (this.closed || events.length === 0) return;
    this.queue.push(...events);
    const max = this.opts.maxQueued ?? 10_000;
    if (this.queue.length > max) {
      const dropped = this.queue.length - max;
      this.queue.splice(0, dropped);
      this.log.warn({ dropped }, 'analytics http sink: queue full, oldest events dropped');
    }
    if (this.queue.length >= this.opts.batch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.opts.flushMs).unref();
  }

  /** Sends everything queued now (in batches, one after the other); resolves when those sends are over. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batches: AnalyticsEvent[][] = [];
    while (this.queue.length > 0) batches.push(this.queue.splice(0, this.opts.batch));
    this.sending = this.sending.then(async () => {
      for (const events of batches) await this.deliver({ events });
    });
    return this.sending;
  }

  private async deliver(batch: AnalyticsBatch): Promise<void> {
    const attempts = this.opts.attempts ?? 4;
    const headers: Record<string, string> = this.opts.token
      ? { authorization: `Bearer ${this.opts.token}` }
      : {};
    for (let attempt = 1; ; attempt++) {
      let problem: string;
      try {
        const res = await this.http.postJson(this.opts.url, batch, { headers });
        if (res.status >= 200 && res.status < 300) return;
        problem = `answered ${res.status}`;
      } catch (err) {
        problem = (err as Error).message;
      }
      if (attempt >= attempts || this.closed) {
        this.log.warn({ events: batch.events.length, problem }, 'analytics http sink: batch dropped');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (attempt - 1)).unref());
    }
  }

  /** Sends what is queued, one try per batch (a collector that is down must not hold the shutdown up). */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }
}
