import type { ChatEvent, SyncCursor, SyncRequest } from '@caseroom/protocol';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed } from '../errors.js';
import { readableChannelSql, syncEventReadableSql } from '../policy/read-access.js';
import { presentRecorded, RECORDED_COLUMNS, type RecordedRow } from '../realtime/recorded.js';

/** Events are kept this long for sync (DESIGN: 30 days); the `prune-events` job drops older ones. */
export const EVENT_RETENTION_DAYS = 30;
/** At most this many events per sync answer (channel events and notifications each); `more` says there are more. */
export const SYNC_MAX_EVENTS = 1000;

interface Readable {
  cid: string;
  last_seq: number;
  joined_seq: number;
  truncated_at: Date | null;
  history_cleared_at: Date | null;
}

/**
 * `POST /chat/sync`: the events the user missed, per channel after the cursor's `seq` (or after `last_sync_at`
 * for a channel without one), and their own notifications after the cursor's `notifications` id, in order.
 * Only channels the user may read now and only events after they joined (policy/read-access's SQL forms; the
 * member's `joined_seq` bounds the numbers too), and each message as it is now, if the reader may see it
 * (realtime/recorded: nothing deleted, truncated or hidden comes back). The answer's
 * `cursor` is where to continue from; `more` says the answer stopped at its cap.
 */
export async function syncEvents(
  ctx: ChatContext,
  actor: Actor,
  req: SyncRequest,
): Promise<{ events: ChatEvent[]; more: boolean; cursor: SyncCursor }> {
  if (actor.kind !== 'user') throw notAllowed('sync is per user; use a user token');
  const userId = actor.userId;
  let since: Date | null = null;
  if (req.last_sync_at !== undefined) {
    since = new Date(req.last_sync_at);
    if (Number.isNaN(since.getTime())) throw inputError('last_sync_at must be an ISO date');
    if (Date.now() - since.getTime() > EVENT_RETENTION_DAYS * 86_400_000) {
      throw inputError(`last_sync_at is older than ${EVENT_RETENTION_DAYS} days; query the channels again`);
    }
  }
  const after = new Map(Object.entries(req.cursor?.channels ?? {}));
  const cids = [...new Set([...req.channel_cids, ...after.keys()])];

  // The channels the user may read now, with their counter, the user's place and view cut-off.
  const readable = await ctx.db.query<Readable>(
    `SELECT c.cid, c.last_seq, m.joined_seq, c.truncated_at, m.history_cleared_at
       FROM chat_channels c JOIN chat_members m ON m.cid = c.cid AND m.user_id = $1
      WHERE c.cid = ANY($2) AND ${readableChannelSql('c', 'm')}`,
    [userId, cids],
  );
  const channels = readable.rows;
  const starts = channels.map((c) => Math.max(after.get(c.cid) ?? (since ? 0 : c.last_seq), c.joined_seq));
  const channelRows = await ctx.db.query<RecordedRow>(
    `SELECT ${RECORDED_COLUMNS} FROM unnest($1::text[], $2::bigint[], $3::timestamptz[]) AS k(cid, after, since)
       JOIN chat_events e ON e.cid = k.cid AND e.seq > k.after
      WHERE (k.since IS NULL OR e.created_at > k.since) AND ${syncEventReadableSql('e', '$4')}
      ORDER BY e.cid COLLATE "C", e.seq LIMIT ${SYNC_MAX_EVENTS + 1}`,
    [channels.map((c) => c.cid), starts, channels.map((c) => (after.has(c.cid) ? null : since)), userId],
  );
  const channelMore = channelRows.rows.length > SYNC_MAX_EVENTS;
  const kept = channelRows.rows.slice(0, SYNC_MAX_EVENTS);

  // Notifications: after the cursor's id, or after `last_sync_at`; a first sync without either starts now.
  const notifAfter = req.cursor?.notifications;
  const notifRows =
    notifAfter === undefined && !since
      ? { rows: [] as RecordedRow[] }
      : await ctx.db.query<RecordedRow>(
          `SELECT ${RECORDED_COLUMNS} FROM chat_events e
            WHERE e.user_id = $1 AND e.id > $2 AND ($3::timestamptz IS NULL OR e.created_at > $3)
            ORDER BY e.id LIMIT ${SYNC_MAX_EVENTS + 1}`,
          [userId, notifAfter ?? 0, notifAfter === undefined ? since : null],
        );
  const notifMore = notifRows.rows.length > SYNC_MAX_EVENTS;
  const notifs = notifRows.rows.slice(0, SYNC_MAX_EVENTS);
  let notifications = notifs.at(-1)?.id ?? notifAfter;
  if (notifications === undefined) {
    const top = await ctx.db.query<{ id: number | null }>(
      'SELECT max(id) AS id FROM chat_events WHERE user_id = $1',
      [userId],
    );
    notifications = top.rows[0]?.id ?? 0;
  }

  // Where each channel ends: its counter when complete (later numbers may be pruned or left out), else the last
  // event given.
  const lastGiven = new Map<string, number>();
  for (const r of kept) if (r.cid !== null && r.seq !== null) lastGiven.set(r.cid, r.seq);
  const stopCid = channelMore ? (kept.at(-1)?.cid ?? undefined) : undefined;
  const cursor: SyncCursor = { channels: {}, notifications };
  channels.forEach((c, i) => {
    const complete = stopCid === undefined || c.cid < stopCid;
    cursor.channels[c.cid] = complete
      ? Math.max(c.last_seq, starts[i] ?? 0)
      : (lastGiven.get(c.cid) ?? starts[i] ?? 0);
  });

  const events = await presentRecorded(ctx.db, [...kept, ...notifs], {
    userId,
    channels: new Map(channels.map((c) => [c.cid, c])),
  });
  return { events: events as ChatEvent[], more: channelMore || notifMore, cursor };
}

/** Drops events past the retention window (the `prune-events` job, realtime/jobs). */
export async function pruneEvents(ctx: Pick<ChatContext, 'db'>, now = new Date()): Promise<number> {
  const { rowCount } = await ctx.db.query(
    `DELETE FROM chat_events WHERE created_at < $1::timestamptz - make_interval(days => $2)`,
    [now, EVENT_RETENTION_DAYS],
  );
  return rowCount;
}
