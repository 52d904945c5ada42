import type { ChatContext } from '../context.js';
import { peersOfSql } from '../policy/read-access.js';
import { presentUser } from '../presenters/user.js';
import type { UserRow } from '../store/rows.js';
import { getUser } from '../store/users.js';
import type { Connection } from './connections.js';

/** A connection row not refreshed for this long no longer counts (its node died): about three ping intervals. */
export const PRESENCE_STALE_SECONDS = 75;

/** SQL: whether the user `alias.id` has a live connection on any node. */
export const onlineSql = (alias: string) =>
  `EXISTS (SELECT 1 FROM chat_presence p WHERE p.user_id = ${alias}.id
             AND p.seen_at > now() - interval '${PRESENCE_STALE_SECONDS} seconds')`;

/** SQL (params: connection id, user id): the user's other live connections, on any node. */
const othersLiveSql = `SELECT count(*)::int AS n FROM chat_presence
  WHERE user_id = $2 AND connection_id <> $1 AND seen_at > now() - interval '${PRESENCE_STALE_SECONDS} seconds'`;

/**
 * `user.presence.changed` to the user's own connections and to everyone sharing a channel with them, on
 * connections that asked for presence (`presence: true` in a channel query).
 */
async function announce(ctx: ChatContext, userId: string, online: boolean, known?: UserRow): Promise<void> {
  const row = known ?? (await getUser(ctx.db, userId));
  if (!row) return;
  const peers = await ctx.db.query<{ user_id: string }>(peersOfSql('$1'), [userId]);
  const user = { ...presentUser(row), online };
  await ctx.realtime.publish([
    {
      users: [...new Set([userId, ...peers.rows.map((r) => r.user_id)])],
      presence: true,
      event: { type: 'user.presence.changed', user, created_at: new Date().toISOString() },
    },
  ]);
}

/** Records a new connection; the user's first one makes them online. */
export async function connectionOpened(ctx: ChatContext, conn: Connection, row?: UserRow): Promise<void> {
  if (conn.anonymous) return;
  // The count reads the snapshot before the insert: the user's other connections.
  const { rows } = await ctx.db.query<{ n: number }>(
    `WITH ins AS (INSERT INTO chat_presence (connection_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING)
     ${othersLiveSql}`,
    [conn.id, conn.userId],
  );
  if ((rows[0]?.n ?? 0) === 0) await announce(ctx, conn.userId, true, row);
}

/** Keeps a connection's row fresh (every ping interval). */
export async function connectionsSeen(ctx: ChatContext, connectionIds: string[]): Promise<void> {
  if (connectionIds.length === 0) return;
  await ctx.db.query('UPDATE chat_presence SET seen_at = now() WHERE connection_id = ANY($1)', [
    connectionIds,
  ]);
}

/** Drops a connection; the user's last one makes them offline (and sets `last_active`). */
export async function connectionClosed(ctx: ChatContext, conn: Connection): Promise<void> {
  // On shutdown the rows stay and go stale: other nodes stop counting them after PRESENCE_STALE_SECONDS.
  if (conn.anonymous || ctx.realtime.closing) return;
  const { rows } = await ctx.db.query<{ n: number }>(
    `WITH del AS (DELETE FROM chat_presence WHERE connection_id = $1) ${othersLiveSql}`,
    [conn.id, conn.userId],
  );
  if ((rows[0]?.n ?? 0) > 0) return;
  const user = await ctx.db.query<UserRow>(
    'UPDATE chat_users SET last_active = now() WHERE id = $1 RETURNING *',
    [conn.userId],
  );
  await announce(ctx, conn.userId, false, user.rows[0]);
}
