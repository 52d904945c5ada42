import type { WebSocketLike } from '../transport/websocket.js';

/** A client connection the fake server pushes frames to: a socket or a long-poll session. */
export interface FakeConnection {
  userId: string | undefined;
  connectionId: string | undefined;
  push(frame: unknown): void;
  serverClose(code?: number, reason?: string): void;
}

/** What the fake socket needs from its server. */
export interface FakeSocketHost {
  accept(socket: FakeWebSocket): void;
  detach(socket: FakeWebSocket): void;
  receive(socket: FakeWebSocket, frame: unknown): void;
}

/**
 * An in-memory WebSocket bound to a fake server. Everything happens on microtasks, so it works with
 * real and fake timers alike.
 */
export class FakeWebSocket implements WebSocketLike, FakeConnection {
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly query: URLSearchParams;
  /** Frames the client sent, parsed. */
  readonly sent: unknown[] = [];
  connectionId: string | undefined;
  userId: string | undefined;

  constructor(
    readonly url: string,
    private readonly host: FakeSocketHost,
  ) {
    this.query = new URL(url).searchParams;
    queueMicrotask(() => {
      if (this.readyState !== 0) return;
      this.readyState = 1;
      this.onopen?.({});
      this.host.accept(this);
    });
  }

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('fake socket is not open');
    const frame = JSON.parse(data) as unknown;
    this.sent.push(frame);
    this.host.receive(this, frame);
  }

  close(code = 1000, reason = ''): void {
    this.serverClose(code, reason);
  }

  /** Delivers a frame to the client. */
  push(frame: unknown): void {
    if (this.readyState !== 1) return;
    const data = JSON.stringify(frame);
    queueMicrotask(() => {
      if (this.readyState === 1) this.onmessage?.({ data });
    });
  }

  /** Closes from the server side (1006 = the network dropped). */
  serverClose(code = 1006, reason = ''): void {
    if (this.readyState >= 2) return;
    this.readyState = 3;
    this.host.detach(this);
    queueMicrotask(() => this.onclose?.({ code, reason }));
  }
}
