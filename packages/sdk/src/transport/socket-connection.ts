import { CHAT_TIMING, ChatErrorCode, type ChatEvent, type EventOf } from '@caseroom/protocol';
import { reconnectDelay } from './backoff.js';
import { ChatApiError } from './errors.js';
import type { Logger } from './logger.js';
import { errorCodeFromReason, frameError } from './frames.js';
import type { TokenManager } from './token-manager.js';
import {
  frameText,
  openWebSocket,
  WS_NORMAL_CLOSE,
  WS_OPEN,
  type WebSocketConstructor,
  type WebSocketLike,
} from './websocket.js';

export type HealthCheck = EventOf<'health.check'>;
export type SocketStatus = 'idle' | 'connecting' | 'connected' | 'disconnected' | 'error';
export type TransportKind = 'websocket' | 'longpoll';

export interface SocketConnectionOptions {
  WebSocket: WebSocketConstructor;
  /** The `/connect` URL with a current token; called before every attempt. */
  buildUrl: () => Promise<string>;
  tokens: TokenManager;
  logger: Logger;
  random?: () => number;
  /** Initial connect gives up after this long (chat-spec §9: 15 s). */
  connectTimeoutMs?: number;
  /**
   * The long-poll fallback (chat-spec §4 Connection). When given, a first WebSocket that has no
   * `health.check` within 6 s, or fails on the network before it, is replaced by a long-poll
   * connection, which then serves every reconnect until `disconnect()`.
   */
  longPoll?: () => WebSocketLike;
  onEvent(event: ChatEvent): void;
  onStatus(status: SocketStatus, detail: { connectionId?: string; error?: string }): void;
  /** Every successful (re)connection; `recovered` is true after a drop. */
  onHealthy(health: HealthCheck, recovered: boolean): void;
}

/**
 * One logical chat connection over a sequence of WebSockets: waits for the first `health.check`,
 * pings every 25 s, declares the socket dead after 35 s of silence, and reconnects with random
 * backoff growing to 25 s. An expired token (code 40) is refreshed before the next attempt.
 */
export class SocketConnection {
  private socket: WebSocketLike | undefined;
  private wanted = false;
  private healthy = false;
  private everConnected = false;
  private attempt = 0;
  private connectionId: string | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private checkTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private fallbackTimer: ReturnType<typeof setTimeout> | undefined;
  private kind: TransportKind = 'websocket';
  private firstConnect:
    | { resolve: (h: HealthCheck) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }
    | undefined;
  private lastError: ChatApiError | undefined;

  constructor(private readonly options: SocketConnectionOptions) {}

  get isHealthy(): boolean {
    return this.healthy;
  }

  get id(): string | undefined {
    return this.connectionId;
  }

  /** What carries the connection: a WebSocket, or the long-poll fallback. */
  get transport(): TransportKind {
    return this.kind;
  }

  /** Opens the connection; resolves on the first `health.check`, rejects after the connect timeout. */
  connect(): Promise<HealthCheck> {
    if (this.wanted) return Promise.reject(new Error('already connected or connecting'));
    this.wanted = true;
    this.everConnected = false;
    this.kind = 'websocket';
    const timeoutMs = this.options.connectTimeoutMs ?? CHAT_TIMING.initialConnectTimeoutMs;
    const promise = new Promise<HealthCheck>((resolve, reject) => {
      const timer = setTimeout(() => {
        const reason = this.lastError?.message ?? `no health.check within ${timeoutMs} ms`;
        this.failFirstConnect(new ChatApiError(`could not connect to chat: ${reason}`, this.lastError ?? {}));
      }, timeoutMs);
      this.firstConnect = { resolve, reject, timer };
    });
    this.options.onStatus('connecting', {});
    void this.open();
    return promise;
  }

  /** Closes with 1000 and stops reconnecting. */
  disconnect(): void {
    this.wanted = false;
    this.clearTimers();
    clearTimeout(this.fallbackTimer);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    if (this.firstConnect) this.failFirstConnect(new Error('disconnected before the connection was ready'));
    this.dropSocket(WS_NORMAL_CLOSE, 'client disconnect');
    this.healthy = false;
    this.connectionId = undefined;
    this.options.onStatus('disconnected', {});
  }

  /** Skips the backoff wait (e.g. the browser came back online). */
  reconnectNow(): void {
    if (!this.wanted || this.healthy || this.socket) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    void this.open();
  }

  /** Treats the socket as dead now (e.g. the browser went offline) and starts reconnecting. */
  markUnhealthy(reason: string): void {
    if (!this.wanted || !this.socket) return;
    this.options.logger('warn', `chat connection unhealthy: ${reason}`);
    this.dropSocket(4000, reason);
    this.handleClosed();
  }

  /** Sends a frame if the socket is open (the ping). */
  send(frame: unknown): void {
    if (this.socket?.readyState === WS_OPEN) this.socket.send(JSON.stringify(frame));
  }

  private async open(): Promise<void> {
    this.attempt += 1;
    let url: string;
    try {
      url = await this.options.buildUrl();
    } catch (error) {
      this.lastError = new ChatApiError(`token provider failed: ${String(error)}`, { cause: error });
      this.scheduleReconnect();
      return;
    }
    if (!this.wanted) return;
    const longPoll = this.kind === 'longpoll' ? this.options.longPoll : undefined;
    const socket = longPoll ? longPoll() : openWebSocket(this.options.WebSocket, url);
    this.socket = socket;
    if (this.canFallBack) {
      clearTimeout(this.fallbackTimer);
      this.fallbackTimer = setTimeout(
        () => this.fallBack(`no health.check within ${CHAT_TIMING.initialConnectTimeoutWithFallbackMs} ms`),
        CHAT_TIMING.initialConnectTimeoutWithFallbackMs,
      );
    }
    socket.onmessage = (event) => this.handleFrame(socket, frameText(event.data));
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      if (!this.healthy && event.code !== WS_NORMAL_CLOSE) {
        this.lastError ??= new ChatApiError(`socket closed (${event.code}) ${event.reason}`.trim(), {
          network: true,
        });
        const code = errorCodeFromReason(event.reason);
        if (code !== undefined) this.lastError = new ChatApiError(event.reason, { code });
        else if (this.canFallBack) return this.fallBack(`socket closed (${event.code})`);
      }
      this.handleClosed();
    };
    socket.onerror = () => {
      this.options.logger('debug', 'chat socket error');
    };
  }

  private handleFrame(socket: WebSocketLike, text: string): void {
    if (this.socket !== socket) return;
    let frame: Record<string, unknown>;
    try {
      frame = JSON.parse(text) as Record<string, unknown>;
    } catch {
      this.options.logger('warn', 'chat socket sent a frame that is not JSON');
      return;
    }
    this.armCheck();
    const error = frameError(frame);
    if (error) {
      this.lastError = error;
      this.options.logger('warn', `chat socket error frame: ${error.message}`, { code: error.code });
      if (!this.healthy) {
        this.dropSocket(WS_NORMAL_CLOSE, 'connect error');
        // A first connect refused for good (bad key, bad signature) fails now rather than after 15 s.
        if (this.firstConnect && !error.retryable && !error.tokenExpired) {
          this.failFirstConnect(new ChatApiError(`could not connect to chat: ${error.message}`, error));
          return;
        }
        this.handleClosed();
      }
      return;
    }
    if (frame.type === 'health.check') {
      if (!this.healthy) this.becomeHealthy(frame as unknown as HealthCheck);
      return;
    }
    if (typeof frame.type === 'string') this.options.onEvent(frame as unknown as ChatEvent);
  }

  /** WebSockets did not work for the first connection: long-poll from now on. */
  private get canFallBack(): boolean {
    return this.options.longPoll !== undefined && this.kind === 'websocket' && !this.everConnected;
  }

  private fallBack(reason: string): void {
    clearTimeout(this.fallbackTimer);
    if (!this.wanted || this.healthy || !this.canFallBack) return;
    this.options.logger('warn', `chat WebSocket failed (${reason}); falling back to long polling`);
    this.kind = 'longpoll';
    this.dropSocket(WS_NORMAL_CLOSE, 'falling back to long polling');
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    void this.open();
  }

  private becomeHealthy(health: HealthCheck): void {
    clearTimeout(this.fallbackTimer);
    const recovered = this.everConnected;
    this.healthy = true;
    this.everConnected = true;
    this.attempt = 0;
    this.lastError = undefined;
    this.connectionId = health.connection_id;
    this.pingTimer = setInterval(
      () => this.send({ type: 'health.check', client_id: this.connectionId }),
      CHAT_TIMING.wsPingIntervalMs,
    );
    this.options.onStatus('connected', { connectionId: health.connection_id });
    if (this.firstConnect) {
      clearTimeout(this.firstConnect.timer);
      this.firstConnect.resolve(health);
      this.firstConnect = undefined;
    }
    this.options.onHealthy(health, recovered);
  }

  /** chat-spec §9: no frame for 35 s means the connection is dead. */
  private armCheck(): void {
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(
      () => this.markUnhealthy('no frame within the connection check timeout'),
      CHAT_TIMING.connectionCheckTimeoutMs,
    );
  }

  private handleClosed(): void {
    const wasHealthy = this.healthy;
    this.healthy = false;
    this.clearTimers();
    if (!this.wanted) return;
    if (wasHealthy) {
      this.connectionId = undefined;
      this.options.onStatus('disconnected', { error: 'connection lost' });
    }
    if (this.lastError?.code === ChatErrorCode.TokenExpired && !this.options.tokens.anonymous) {
      this.options.logger('info', 'chat token expired; refreshing before reconnecting');
      this.lastError = undefined;
      this.options.tokens.refresh().then(
        () => this.wanted && !this.socket && void this.open(),
        (error: unknown) => {
          this.lastError = new ChatApiError(`token refresh failed: ${String(error)}`, { cause: error });
          this.scheduleReconnect();
        },
      );
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (!this.wanted || this.reconnectTimer) return;
    // `attempt` counts the sockets opened since the last healthy one; the next is attempt + 1.
    const delay = reconnectDelay(this.attempt + 1, this.options.random);
    this.options.logger('info', `chat reconnect in ${delay} ms`, { attempt: this.attempt });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.wanted && !this.socket) void this.open();
    }, delay);
  }

  private failFirstConnect(error: Error): void {
    const pending = this.firstConnect;
    if (!pending) return;
    this.firstConnect = undefined;
    clearTimeout(pending.timer);
    clearTimeout(this.fallbackTimer);
    this.wanted = false;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.clearTimers();
    this.dropSocket(WS_NORMAL_CLOSE, 'connect timeout');
    this.options.onStatus('error', { error: error.message });
    pending.reject(error);
  }

  private dropSocket(code: number, reason: string): void {
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) return;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onopen = null;
    socket.onerror = () => {};
    try {
      socket.close(code, reason);
    } catch {
      // Closing a socket that never opened can throw in some implementations; it is gone either way.
    }
  }

  private clearTimers(): void {
    clearInterval(this.pingTimer);
    clearTimeout(this.checkTimer);
    this.pingTimer = undefined;
    this.checkTimer = undefined;
  }
}
