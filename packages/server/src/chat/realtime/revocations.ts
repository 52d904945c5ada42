import type { Db } from '../../platform/db.js';
import type { Logger } from '../../platform/logger.js';
import type { ChatContext } from '../context.js';
import type { Realtime } from './fanout.js';

/**
 * How long a revocation is kept. It must outlive every token it refuses: the product's chat tokens live 5 minutes,
 * guests' 24 hours. (A token minted through the server API without expiry outlives it: mint expiring tokens.)
 */
export const REVOCATION_RETENTION_DAYS = 30;
/** How often a node reads the revocations recorded since its last look (the bus messages it may have missed). */
export const REVOCATION_POLL_MS = 2000;
/** Each look reads again the rows recorded this long before the newest it saw: writes may commit out of order. */
const OVERLAP_MS = 30_000;

/**
 * Revokes the user's chat tokens issued up to now (sign-out, deactivation, deletion): recorded in PostgreSQL (the
 * truth, read by restarted nodes and by nodes that missed the bus), then announced on the bus (the fast path), which
 * also closes the user's sockets on every node.
 */
export async function revokeTokens(ctx: ChatContext, userId: string): Promise<void> {
  const before = Math.ceil(Date.now() / 1000);
  const expiresAt = new Date((before + REVOCATION_RETENTION_DAYS * 86_400) * 1000);
  try {
    await ctx.db.query(
      `INSERT INTO chat_token_revocations (user_id, revoked_before, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE
         SET revoked_before = GREATEST(chat_token_revocations.revoked_before, EXCLUDED.revoked_before),
             expires_at = GREATEST(chat_token_revocations.expires_at, EXCLUDED.expires_at),
             recorded_at = now()`,
      [userId, before, expiresAt],
    );
  } finally {
    // Even when the database failed, this node and those the bus reaches refuse the tokens from now on.
    await ctx.realtime.revokeUser(userId, before);
  }
}

/**
 * Keeps a node's revocations (`Realtime.revokedBefore`, read on every authentication) in step with the table: all
 * live ones at start, then every {@link REVOCATION_POLL_MS} those recorded since; a newly learned one also closes the
 * user's sockets on this node. Entries go from memory and table once expired, so memory stays bounded by the users
 * revoked within the retention. Deactivated and deleted users (`Realtime.inactive`, also announced on the bus) are
 * followed the same way, from the users changed since the last look.
 */
export class RevocationSync {
  private newest: Date | undefined;
  private newestUser: Date | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private failing = false;

  constructor(
    private readonly db: Db,
    private readonly realtime: Realtime,
    private readonly log: Logger,
  ) {}

  /** Loads every live revocation (before the node serves requests) and starts following the table. */
  async start(): Promise<void> {
    await this.read();
    this.timer = setInterval(() => void this.poll(), REVOCATION_POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One look at the table; a failure (database away) is logged once until a look succeeds again. */
  async poll(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.read();
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.log.warn({ err }, 'reading chat token revocations failed');
      this.failing = true;
    } finally {
      this.running = false;
    }
  }

  private async read(): Promise<void> {
    await this.readRevocations();
    await this.readInactive();
  }

  private async readRevocations(): Promise<void> {
    const since = this.newest ? new Date(this.newest.getTime() - OVERLAP_MS) : undefined;
    const { rows } = await this.db.query<{ user_id: string; revoked_before: string; recorded_at: Date }>(
      `SELECT user_id, revoked_before, recorded_at FROM chat_token_revocations
        WHERE expires_at > now()${since ? ' AND recorded_at > $1' : ''}`,
      since ? [since] : [],
    );
    for (const row of rows) {
      this.realtime.applyRevocation(row.user_id, Number(row.revoked_before));
      if (!this.newest || row.recorded_at > this.newest) this.newest = row.recorded_at;
    }
  }

  /** At start every inactive user; then the users changed since the last look, active or not. */
  private async readInactive(): Promise<void> {
    if (!this.newestUser) {
      const { rows } = await this.db.query<{ id: string }>(
        'SELECT id FROM chat_users WHERE deactivated_at IS NOT NULL OR deleted_at IS NOT NULL',
      );
      for (const row of rows) this.realtime.inactive.add(row.id);
      const newest = await this.db.query<{ newest: Date | null }>(
        'SELECT max(updated_at) AS newest FROM chat_users',
      );
      this.newestUser = newest.rows[0]?.newest ?? new Date(0);
      return;
    }
    const { rows } = await this.db.query<{ id: string; inactive: boolean; updated_at: Date }>(
      `SELECT id, (deactivated_at IS NOT NULL OR deleted_at IS NOT NULL) AS inactive, updated_at
         FROM chat_users WHERE updated_at > $1`,
      [new Date(this.newestUser.getTime() - OVERLAP_MS)],
    );
    for (const row of rows) {
      if (row.inactive) this.realtime.inactive.add(row.id);
      else this.realtime.inactive.delete(row.id);
      if (row.updated_at > this.newestUser) this.newestUser = row.updated_at;
    }
  }

  /** Drops expired revocations from the table and from memory. */
  async prune(): Promise<void> {
    await this.db.query('DELETE FROM chat_token_revocations WHERE expires_at < now()');
    const horizon = Math.floor(Date.now() / 1000) - REVOCATION_RETENTION_DAYS * 86_400;
    for (const [userId, before] of this.realtime.revokedBefore) {
      if (before < horizon) this.realtime.revokedBefore.delete(userId);
    }
  }
}
