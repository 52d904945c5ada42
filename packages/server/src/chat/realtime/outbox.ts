import type { ServerEvent } from '@caseroom/protocol';
import { literal, type Tx } from '../../platform/db.js';
import type { ChatContext } from '../context.js';
import { eventJson, type Delivery } from './fanout.js';

/** Events of one write: recorded in its transaction (for `POST /chat/sync`), published after it commits. */
export class Outbox {
  readonly deliveries: Delivery[] = [];
  private readonly records: Array<{ cid: string | null; userId: string | null; event: ServerEvent }> = [];

  /** A channel event for `users`; recorded under its `cid` for sync. */
  channelEvent(users: string[], event: ServerEvent & { cid: string }, watch?: Delivery['watch']): void {
    this.deliveries.push(watch ? { users, event, watch } : { users, event });
    this.records.push({ cid: event.cid, userId: null, event });
  }

  /** A notification for one user's connections; recorded for that user. */
  notify(userId: string, event: ServerEvent): void {
    this.deliveries.push({ users: [userId], event });
    this.records.push({ cid: null, userId, event });
  }

  /** An event that is not kept for sync (typing, presence). */
  transient(delivery: Delivery): void {
    this.deliveries.push(delivery);
  }

  /** The staged records as `VALUES` rows of `chat_events (cid, user_id, type, payload, created_at)`; clears them. */
  takeRecords(): string[] {
    const rows = this.records.map(
      (r) =>
        `(${literal(r.cid)}, ${literal(r.userId)}, ${literal(r.event.type)}, ${literal(eventJson(r.event))}::jsonb, ${literal(r.event.created_at)}::timestamptz)`,
    );
    this.records.length = 0;
    return rows;
  }

  /**
   * Records the events in one statement that goes with the transaction's `COMMIT` (one round trip for both);
   * `seq` follows the order they were staged in.
   */
  record(q: Tx): void {
    const rows = this.takeRecords();
    if (rows.length === 0) return;
    q.beforeCommit(
      `INSERT INTO chat_events (cid, user_id, type, payload, created_at) VALUES ${rows.join(', ')}`,
    );
  }
}

/** Runs one write in a transaction, records its events, then publishes them once it committed. */
export async function write<T>(ctx: ChatContext, fn: (q: Tx, out: Outbox) => Promise<T>): Promise<T> {
  const out = new Outbox();
  const result = await ctx.db.tx(async (q) => {
    const r = await fn(q, out);
    out.record(q);
    return r;
  });
  await ctx.realtime.publish(out.deliveries);
  return result;
}
