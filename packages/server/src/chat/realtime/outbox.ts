import type { ServerEvent } from '@caseroom/protocol';
import { literal, type Queryable, type Tx } from '../../platform/db.js';
import type { ChatContext } from '../context.js';
import type { Delivery, WireEvent } from './fanout.js';

/** One staged record of `chat_events`. */
interface StagedRecord {
  cid: string | null;
  userId: string | null;
  event: ServerEvent & { seq?: number };
}

/**
 * The event as the table keeps it: a reference to its message (`message_id`) instead of a copy — for a thread
 * event, its parent message; the thread with its replies is presented anew — and not its `seq` (a column).
 * Sync and the relay present the message (or thread) as it is when they read it: a message is stored once.
 */
export function storedPayload(event: WireEvent): { payload: string; messageId: string | null } {
  const {
    message,
    thread,
    seq: _seq,
    ...rest
  } = event as WireEvent & {
    message?: { id?: unknown };
    thread?: { parent_message_id?: unknown };
    seq?: unknown;
  };
  const id = message?.id ?? thread?.parent_message_id;
  return { payload: JSON.stringify(rest), messageId: typeof id === 'string' ? id : null };
}

/**
 * Events of one write: recorded in its transaction (for `POST /chat/sync` and the relay), published after it
 * commits. Channel events are numbered from their channel's counter (`chat_channels.last_seq`): consecutive per
 * channel and in commit order, because the numbers are taken under the channel row's lock and written back in the
 * same transaction.
 */
export class Outbox {
  readonly deliveries: Delivery[] = [];
  /** Work outside the database once the write committed (stored files of deleted messages); see {@link write}. */
  readonly afterCommit: Array<() => Promise<void>> = [];
  private readonly records: StagedRecord[] = [];
  /** Channels whose row this transaction locked: the counter read with the lock, and the last number given. */
  private readonly counters = new Map<string, { read: number; last: number }>();

  /**
   * The transaction holds `cid`'s row lock and read its counter `lastSeq`: events of `cid` are numbered from it.
   * Call right after the lock, before any event of the channel is staged.
   */
  locked(cid: string, lastSeq: number): void {
    if (!this.counters.has(cid)) this.counters.set(cid, { read: lastSeq, last: lastSeq });
  }

  /** The seq the next event of `cid` takes (a message's seq before its `message.new` is staged). */
  nextSeq(cid: string): number {
    const counter = this.counters.get(cid);
    if (!counter) throw new Error(`channel ${cid} is not locked by this write`);
    return counter.last + 1;
  }

  /** A channel event for `users`; numbered in its channel's sequence and recorded under its `cid` for sync. */
  channelEvent(users: string[], event: ServerEvent & { cid: string }, watch?: Delivery['watch']): void {
    const counter = this.counters.get(event.cid);
    if (counter) (event as { seq?: number }).seq = ++counter.last;
    this.deliveries.push(watch ? { users, event, watch } : { users, event });
    this.records.push({ cid: event.cid, userId: null, event });
  }

  /** A notification for one user's connections; recorded for that user (no seq: the per-user cursor is its id). */
  notify(userId: string, event: ServerEvent): void {
    this.deliveries.push({ users: [userId], event });
    this.records.push({ cid: null, userId, event });
  }

  /** An event that is not kept for sync (typing, presence): no seq. */
  transient(delivery: Delivery): void {
    this.deliveries.push(delivery);
  }

  /**
   * Numbers the channel events of channels this write did not lock: takes their counters now (an `UPDATE` that
   * locks the row until the commit). Writes should lock first ({@link lockSeq}); this keeps a forgotten one correct.
   */
  private async numberUnlocked(q: Queryable): Promise<void> {
    const wanted = new Map<string, number>();
    for (const r of this.records) {
      if (r.cid !== null && r.event.seq === undefined) wanted.set(r.cid, (wanted.get(r.cid) ?? 0) + 1);
    }
    // In one order (by cid) across writes, so two such writes cannot wait on each other.
    for (const [cid, n] of [...wanted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const { rows } = await q.query<{ last_seq: number }>(
        'UPDATE chat_channels SET last_seq = last_seq + $2 WHERE cid = $1 RETURNING last_seq',
        [cid, n],
      );
      const last = rows[0]?.last_seq ?? n;
      // Taken and written back already: the counter is not written again at the commit.
      this.counters.set(cid, { read: last, last: last - n });
      for (const r of this.records) {
        if (r.cid === cid && r.event.seq === undefined) r.event.seq = ++this.counters.get(cid)!.last;
      }
    }
  }

  /** The staged records as rows `(cid, seq, user_id, type, message_id, payload, created_at)` in SQL; clears them. */
  takeRecords(): string[] {
    const rows = this.records.map((r) => {
      const { payload, messageId } = storedPayload(r.event);
      const seq = r.cid === null ? null : (r.event.seq as number);
      return `(${literal(r.cid)}, ${literal(seq)}, ${literal(r.userId)}, ${literal(r.event.type)}, ${literal(messageId)}, ${literal(payload)}::jsonb, ${literal(r.event.created_at)}::timestamptz)`;
    });
    this.records.length = 0;
    return rows;
  }

  /**
   * The counters this write moved, as `(cid, last_seq)`; clears them (the caller writes them back in its
   * transaction, as {@link record} does).
   */
  takeCounters(): Array<[string, number]> {
    const moved: Array<[string, number]> = [];
    for (const [cid, c] of this.counters) {
      if (c.last !== c.read) moved.push([cid, c.last]);
      c.read = c.last;
    }
    return moved;
  }

  /**
   * Records the events and the channels' new counters in statements that go with the transaction's `COMMIT`
   * (one round trip for all); ids follow the order the events were staged in.
   */
  async record(q: Tx): Promise<void> {
    await this.numberUnlocked(q);
    for (const [cid, last] of this.takeCounters()) {
      q.beforeCommit(`UPDATE chat_channels SET last_seq = ${literal(last)} WHERE cid = ${literal(cid)}`);
    }
    const rows = this.takeRecords();
    if (rows.length === 0) return;
    q.beforeCommit(
      `INSERT INTO chat_events (cid, seq, user_id, type, message_id, payload, created_at) VALUES ${rows.join(', ')}`,
    );
  }
}

/**
 * Locks `cid`'s row for the rest of the transaction and tells `out` its counter: the first statement of a write
 * that emits events of a channel it does not lock otherwise (locks taken in the same order everywhere: the
 * channel first, then its members and messages). False when the channel does not exist.
 */
export async function lockSeq(q: Queryable, out: Outbox, cid: string): Promise<boolean> {
  const { rows } = await q.query<{ last_seq: number }>(
    'SELECT last_seq FROM chat_channels WHERE cid = $1 FOR UPDATE',
    [cid],
  );
  const row = rows[0];
  if (!row) return false;
  out.locked(cid, row.last_seq);
  return true;
}

/** {@link lockSeq} for the channel of message `messageId` (nothing when the message does not exist). */
export async function lockSeqOfMessage(q: Queryable, out: Outbox, messageId: string): Promise<void> {
  const { rows } = await q.query<{ cid: string; last_seq: number }>(
    `SELECT c.cid, c.last_seq FROM chat_channels c
      WHERE c.cid = (SELECT m.cid FROM chat_messages m WHERE m.id = $1) FOR UPDATE OF c`,
    [messageId],
  );
  const row = rows[0];
  if (row) out.locked(row.cid, row.last_seq);
}

/** Runs one write in a transaction, records its events, then publishes them once it committed. */
export async function write<T>(ctx: ChatContext, fn: (q: Tx, out: Outbox) => Promise<T>): Promise<T> {
  let out = new Outbox();
  const result = await ctx.db.tx(async (q) => {
    out = new Outbox();
    const r = await fn(q, out);
    await out.record(q);
    return r;
  });
  await ctx.realtime.publish(out.deliveries);
  for (const task of out.afterCommit) {
    // Inside a caller's transaction (server-tx `chatWithin`) the task waits for that commit instead.
    if (ctx.afterCommit) ctx.afterCommit(task);
    else await task();
  }
  return result;
}
