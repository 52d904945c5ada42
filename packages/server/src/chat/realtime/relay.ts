import type { Queryable } from '../../platform/db.js';
import type { Logger } from '../../platform/logger.js';
import { readerSql } from '../store/channels.js';
import type { Realtime } from './fanout.js';
import { presentRecorded, RECORDED_COLUMNS, type RecordedRow } from './recorded.js';

/** How often each node looks for recorded channel events it never received. */
export const RELAY_EVERY_MS = 1000;
/**
 * A recorded event this old that never arrived over the bus is relayed. A publish normally takes milliseconds;
 * the margin keeps an overloaded node (bus messages queued behind its work) from relaying what the bus still brings.
 */
export const RELAY_GRACE_MS = 3000;
/** Ids skipped in the table's order (a transaction still open, or rolled back) are looked at again this long. */
const HOLE_TTL_MS = 30_000;
/** At most this many rows per look. */
const BATCH = 5000;

/**
 * The relay from the event table (docs/ARCHITECTURE.md "Event sequence and sync"). A node publishes a write's
 * events on the bus after its COMMIT; a node that dies in between, or a bus that drops a message (Redis down),
 * leaves recorded events that some nodes never received. Each node reads every new row of `chat_events` once (by
 * id; ids skipped because their transaction was still open are looked at again) and delivers to its OWN sockets
 * each channel event older than {@link RELAY_GRACE_MS} that it has not delivered yet ({@link Realtime.firstDelivery}
 * keeps bus and relay from delivering one event twice). No node coordinates with another: each covers its own
 * connections. A user's notifications (no seq) are not relayed: clients get them from sync.
 */
export class Relay {
  private scannedTo = 0;
  private readonly holes = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly realtime: Realtime,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const { rows } = await this.db.query<{ id: number | null }>('SELECT max(id) AS id FROM chat_events');
    this.scannedTo = rows[0]?.id ?? 0;
    this.timer = setInterval(() => {
      this.tick().catch((err: unknown) => this.log.warn({ err }, 'chat event relay failed'));
    }, RELAY_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One look (one at a time); answers how many events it delivered. */
  tick(): Promise<number> {
    this.running ??= this.look().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async look(): Promise<number> {
    const now = Date.now();
    this.realtime.forgetBefore(now - 2 * HOLE_TTL_MS);
    for (const [id, since] of this.holes) if (since < now - HOLE_TTL_MS) this.holes.delete(id);
    const grace = `now() - make_interval(secs => ${RELAY_GRACE_MS / 1000})`;
    const fresh = await this.db.query<{ id: number; cid: string | null; seq: number | null }>(
      `SELECT id, cid, seq FROM chat_events WHERE id > $1 AND created_at < ${grace} ORDER BY id LIMIT ${BATCH}`,
      [this.scannedTo],
    );
    const found = [...fresh.rows];
    let expected = this.scannedTo + 1;
    for (const r of fresh.rows) {
      for (; expected < r.id; expected++) this.holes.set(expected, now);
      expected = r.id + 1;
    }
    this.scannedTo = Math.max(this.scannedTo, fresh.rows.at(-1)?.id ?? 0);
    const holes = [...this.holes.keys()].filter((id) => id <= this.scannedTo);
    if (holes.length > 0) {
      const late = await this.db.query<{ id: number; cid: string | null; seq: number | null }>(
        `SELECT id, cid, seq FROM chat_events WHERE id = ANY($1) AND created_at < ${grace}`,
        [holes],
      );
      for (const r of late.rows) {
        this.holes.delete(r.id);
        found.push(r);
      }
    }
    const missed = found.filter(
      (r) => r.cid !== null && r.seq !== null && !this.realtime.wasDelivered(r.cid, r.seq),
    );
    if (missed.length === 0) return 0;
    return this.deliver(missed.map((r) => r.id));
  }

  private async deliver(ids: number[]): Promise<number> {
    const { rows } = await this.db.query<RecordedRow>(
      `SELECT ${RECORDED_COLUMNS} FROM chat_events e WHERE e.id = ANY($1) ORDER BY e.cid, e.seq`,
      [ids],
    );
    const cids = [...new Set(rows.map((r) => r.cid as string))];
    const readers = await this.db.query<{ cid: string; users: string[] }>(
      `SELECT m.cid, array_agg(m.user_id) AS users FROM chat_members m
        WHERE m.cid = ANY($1) AND ${readerSql('m')} GROUP BY m.cid`,
      [cids],
    );
    const audience = new Map(readers.rows.map((r) => [r.cid, r.users]));
    // Presented as live events are (no viewer), each message as it is now.
    const events = await presentRecorded(this.db, rows, undefined);
    let delivered = 0;
    for (const event of events) {
      const users = audience.get('cid' in event ? String(event.cid) : '') ?? [];
      if (users.length === 0) continue;
      this.realtime.deliverLocal({ users, event });
      delivered++;
    }
    if (delivered > 0) this.log.info({ delivered }, 'chat relay delivered events the bus did not bring');
    return delivered;
  }
}
