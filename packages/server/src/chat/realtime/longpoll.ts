import { ChatErrorCode } from '@caseroom/protocol';
import type { ChatContext } from '../context.js';
import { ChatError } from '../errors.js';
import type { ConnectionSink } from './connections.js';

/** Frames a long-poll connection was not polled for are dropped after this long. */
export const LONGPOLL_FRAME_TTL_SECONDS = 60;

/**
 * The sink of a long-poll connection on the node that opened it (the "holder": it keeps the connection's watch
 * and presence state and receives its fan-out like any socket). Frames are queued in `chat_longpoll_frames`, in
 * order, and every node is woken over the bus, so the next poll may land on any node ({@link takeFrames}). The
 * connection closes when no node polled it within `idleMs` (the same 35 s check as a socket).
 */
export class LongPollSink implements ConnectionSink {
  private connectionId: string | undefined;
  private chain: Promise<void> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;
  private closed = false;
  /** Frames fanned out while the connection was still being registered. */
  private early: string[] = [];

  constructor(
    private readonly ctx: ChatContext,
    private readonly idleMs: number,
    private readonly onClose: () => void,
  ) {}

  get open(): boolean {
    return !this.closed;
  }

  /** Registers the connection (before its `health.check` answers) so that any node can take its frames. */
  async attach(connectionId: string, userId: string): Promise<void> {
    this.connectionId = connectionId;
    await this.ctx.db.query(
      'INSERT INTO chat_longpoll_connections (connection_id, user_id) VALUES ($1, $2)',
      [connectionId, userId],
    );
    for (const frame of this.early.splice(0)) this.send(frame);
    this.arm();
  }

  send(frame: string): void {
    const id = this.connectionId;
    if (this.closed) return;
    if (!id) {
      this.early.push(frame);
      return;
    }
    // One insert after the other keeps the connection's frames in fan-out order.
    this.chain = this.chain
      .then(async () => {
        await this.ctx.db.query('INSERT INTO chat_longpoll_frames (connection_id, frame) VALUES ($1, $2)', [
          id,
          frame,
        ]);
        await this.ctx.realtime.wakePoll(id);
      })
      .catch((err: unknown) => this.ctx.log.warn({ err }, 'long-poll frame not queued'));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.idle);
    const id = this.connectionId;
    if (id) {
      void this.chain
        .then(() => this.ctx.db.query('DELETE FROM chat_longpoll_connections WHERE connection_id = $1', [id]))
        .then(() => this.ctx.realtime.wakePoll(id))
        .catch(() => undefined);
    }
    this.onClose();
  }

  /** Checks every `idleMs` whether some node polled the connection lately; closes it otherwise. */
  private arm(): void {
    if (this.closed) return;
    this.idle = setTimeout(() => {
      void this.check().catch(() => this.close());
    }, this.idleMs);
    this.idle.unref();
  }

  private async check(): Promise<void> {
    const { rows } = await this.ctx.db.query<{ fresh: boolean }>(
      `SELECT polled_at > now() - make_interval(secs => $2) AS fresh
         FROM chat_longpoll_connections WHERE connection_id = $1`,
      [this.connectionId, this.idleMs / 1000],
    );
    if (!rows[0]?.fresh) return this.close();
    await this.ctx.db.query(
      `DELETE FROM chat_longpoll_frames
        WHERE connection_id = $1 AND created_at < now() - make_interval(secs => $2)`,
      [this.connectionId, LONGPOLL_FRAME_TTL_SECONDS],
    );
    this.arm();
  }
}

function notFoundError(connectionId: string): ChatError {
  return new ChatError(
    ChatErrorCode.ConnectionIdNotFound,
    `connection_id "${connectionId}" not found: the long-poll connection ended (not polled for 35 s, or its node ` +
      'stopped); open a new one with GET /chat/longpoll without connection_id',
    400,
  );
}

async function takeQueued(ctx: ChatContext, connectionId: string): Promise<string[]> {
  const { rows } = await ctx.db.query<{ seq: string; frame: string }>(
    'DELETE FROM chat_longpoll_frames WHERE connection_id = $1 RETURNING seq, frame',
    [connectionId],
  );
  return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map((r) => r.frame);
}

/**
 * A poll, on any node: refreshes the connection (code 46 when it is gone or not the caller's), then answers its
 * queued frames at once or waits up to `timeoutMs` for the holder to queue some.
 */
export async function takeFrames(
  ctx: ChatContext,
  connectionId: string,
  userId: string,
  timeoutMs: number,
): Promise<string[]> {
  const seen = await ctx.db.query(
    'UPDATE chat_longpoll_connections SET polled_at = now() WHERE connection_id = $1 AND user_id = $2',
    [connectionId, userId],
  );
  if (seen.rowCount === 0) throw notFoundError(connectionId);
  await ctx.db.query('UPDATE chat_presence SET seen_at = now() WHERE connection_id = $1', [connectionId]);
  let wake: () => void = () => undefined;
  const woken = new Promise<void>((resolve) => (wake = resolve));
  const stop = ctx.realtime.onPollWake(connectionId, () => wake());
  try {
    const ready = await takeQueued(ctx, connectionId);
    if (ready.length > 0 || timeoutMs === 0) return ready;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([woken, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    return await takeQueued(ctx, connectionId);
  } finally {
    stop();
  }
}
