import type { SyncRequest } from '@caseroom/protocol';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed } from '../errors.js';
import { syncEventReadableSql } from '../policy/read-access.js';

/** Events are kept this long for sync (DESIGN: 30 days). */
export const EVENT_RETENTION_DAYS = 30;
/** At most this many events per sync answer; a client further behind re-queries its channels. */
const SYNC_MAX_EVENTS = 2000;

/**
 * `POST /chat/sync`: the events the user missed since `last_sync_at` in the channels they name (and are still a
 * member of), plus their own notifications, in the order they happened.
 */
export async function syncEvents(
  ctx: ChatContext,
  actor: Actor,
  req: SyncRequest,
): Promise<{ events: unknown[]; more: boolean }> {
  if (actor.kind !== 'user') throw notAllowed('sync is per user; use a user token');
  const since = new Date(req.last_sync_at);
  if (Number.isNaN(since.getTime())) throw inputError('last_sync_at must be an ISO date');
  if (Date.now() - since.getTime() > EVENT_RETENTION_DAYS * 86_400_000) {
    throw inputError(`last_sync_at is older than ${EVENT_RETENTION_DAYS} days; query the channels again`);
  }
  const { rows } = await ctx.db.query<{ payload: unknown }>(
    `SELECT e.payload FROM chat_events e
      WHERE e.created_at > $2
        AND ((e.cid = ANY($3) AND e.user_id IS NULL
              AND ${syncEventReadableSql('e', '$1')})
             OR e.user_id = $1)
      ORDER BY e.seq LIMIT ${SYNC_MAX_EVENTS + 1}`,
    [actor.userId, since, req.channel_cids],
  );
  // `more`: the answer stopped at the cap; the client syncs again from the last event's created_at (or re-queries).
  return {
    events: rows.slice(0, SYNC_MAX_EVENTS).map((r) => r.payload),
    more: rows.length > SYNC_MAX_EVENTS,
  };
}

/** Drops events past the retention window. */
export async function pruneEvents(ctx: ChatContext): Promise<void> {
  await ctx.db.query(`DELETE FROM chat_events WHERE created_at < now() - make_interval(days => $1)`, [
    EVENT_RETENTION_DAYS,
  ]);
}
