import { CHAT_TIMING } from '@caseroom/protocol';
import type { WebSocket } from 'ws';
import type { ChatContext } from '../context.js';
import type { Connection } from './connections.js';
import { connectionsSeen } from './presence.js';

/** How often the sweep looks at every socket: the precision of pings and of dropping silent sockets. */
const SWEEP_EVERY_MS = 5_000;

/** One watched socket: when it was last heard from and when it is next pinged. */
export interface WatchedSocket {
  readonly socket: WebSocket;
  lastSeen: number;
  nextPing: number;
  conn: Connection | undefined;
}

/**
 * One timer per node for every chat socket (a timer per socket cost idle CPU with tens of thousands of them):
 * pings each socket every `wsPingIntervalMs`, drops one silent for longer than `connectionCheckTimeoutMs`, and
 * refreshes the presence of the pinged connections in one statement.
 */
export class SocketSweep {
  private readonly sockets = new Set<WatchedSocket>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: ChatContext) {}

  watch(socket: WebSocket): WatchedSocket {
    const now = Date.now();
    const watched: WatchedSocket = {
      socket,
      lastSeen: now,
      nextPing: now + CHAT_TIMING.wsPingIntervalMs,
      conn: undefined,
    };
    this.sockets.add(watched);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
      this.timer.unref();
    }
    return watched;
  }

  unwatch(watched: WatchedSocket): void {
    this.sockets.delete(watched);
    if (this.sockets.size === 0) this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private sweep(): void {
    const now = Date.now();
    const seen: string[] = [];
    for (const w of this.sockets) {
      if (now - w.lastSeen > CHAT_TIMING.connectionCheckTimeoutMs) {
        w.socket.terminate();
        continue;
      }
      if (now < w.nextPing) continue;
      w.nextPing = now + CHAT_TIMING.wsPingIntervalMs;
      if (w.socket.readyState === w.socket.OPEN) w.socket.ping();
      if (w.conn && !w.conn.anonymous) seen.push(w.conn.id);
    }
    connectionsSeen(this.ctx, seen).catch((err: unknown) => this.ctx.log.warn({ err }, 'presence refresh'));
  }
}
