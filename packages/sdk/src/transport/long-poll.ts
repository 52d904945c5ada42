import { CHAT_TIMING } from '@caseroom/protocol';
import type { ApiClient } from './api-client.js';
import { toChatApiError } from './errors.js';
import { WS_NORMAL_CLOSE, type WebSocketLike } from './websocket.js';

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 3;

export interface LongPollOptions {
  /** The opening request gives up after this long (chat-spec §9: 8 s). */
  connectTimeoutMs?: number;
  /** How long the server holds a poll open when it has nothing (chat-spec §9: 30 s). */
  pollTimeoutMs?: number;
}

/**
 * The long-poll fallback (`GET /longpoll`) behind the WebSocket interface, so the connection's rules
 * (health check, pings, 35 s check, reconnects) apply unchanged. The opening request answers the
 * `health.check` with the connection id; each poll then waits up to 30 s for that connection's events,
 * the same frames a socket gets. A poll that comes back empty is delivered as a `health.check`: the
 * server answered, so the connection is alive. Any failure closes it (1006, or the chat error code in
 * the reason as a socket would) and the connection reconnects as after a dropped socket.
 */
export class LongPollSocket implements WebSocketLike {
  readyState = CONNECTING;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  private readonly abort = new AbortController();
  private connectionId: string | undefined;

  constructor(
    private readonly api: ApiClient,
    private readonly options: LongPollOptions = {},
  ) {
    queueMicrotask(() => void this.run());
  }

  /** Pings need no frame: every poll tells the server the connection is alive. */
  send(): void {}

  close(code = WS_NORMAL_CLOSE, reason = ''): void {
    this.finish(code, reason);
  }

  private async run(): Promise<void> {
    const connectTimeoutMs = this.options.connectTimeoutMs ?? CHAT_TIMING.longPollConnectTimeoutMs;
    const pollTimeoutMs = this.options.pollTimeoutMs ?? CHAT_TIMING.longPollTimeoutMs;
    try {
      const opened = await this.api.get<{ events?: unknown[] }>('/longpoll', {
        timeoutMs: connectTimeoutMs,
        signal: this.abort.signal,
      });
      if (this.readyState !== CONNECTING) return;
      this.readyState = OPEN;
      this.onopen?.({});
      this.deliver(opened.events ?? []);
      while (this.readyState === OPEN) {
        const answer = await this.api.get<{ events?: unknown[] }>('/longpoll', {
          query: { connection_id: this.connectionId, timeout: pollTimeoutMs },
          // The server answers by then; the margin covers the network.
          timeoutMs: pollTimeoutMs + connectTimeoutMs,
          signal: this.abort.signal,
        });
        if (this.readyState !== OPEN) return;
        const events = answer.events ?? [];
        this.deliver(events.length ? events : [{ type: 'health.check', connection_id: this.connectionId }]);
      }
    } catch (error) {
      if (this.readyState === CLOSED) return;
      const failure = toChatApiError(error);
      this.finish(
        failure.code !== undefined && !failure.network ? 4000 : 1006,
        failure.code !== undefined ? `code ${failure.code}: ${failure.message}` : failure.message,
      );
    }
  }

  private deliver(events: unknown[]): void {
    for (const event of events) {
      const frame = event as { type?: unknown; connection_id?: unknown };
      if (frame.type === 'health.check' && typeof frame.connection_id === 'string')
        this.connectionId = frame.connection_id;
      if (this.readyState !== OPEN) return;
      this.onmessage?.({ data: JSON.stringify(event) });
    }
  }

  private finish(code: number, reason: string): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    this.abort.abort();
    const onclose = this.onclose;
    queueMicrotask(() => onclose?.({ code, reason }));
  }
}
