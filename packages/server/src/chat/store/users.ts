import type { Queryable } from '../../platform/db.js';
import { readableChannelSql } from '../policy/read-access.js';
import { onlineSql } from '../realtime/presence.js';
import type { UserRow } from './rows.js';

export async function getUsers(q: Queryable, ids: Iterable<string>): Promise<Map<string, UserRow>> {
  const list = [...new Set(ids)];
  const map = new Map<string, UserRow>();
  if (list.length === 0) return map;
  const { rows } = await q.query<UserRow>(
    `SELECT u.*, ${onlineSql('u')} AS online FROM chat_users u WHERE u.id = ANY($1)`,
    [list],
  );
  for (const row of rows) map.set(row.id, row);
  return map;
}

export async function getUser(q: Queryable, id: string): Promise<UserRow | undefined> {
  return (await getUsers(q, [id])).get(id);
}

/** Makes sure a user row exists for an authenticated id (a token is proof enough of the user). */
export async function ensureUser(q: Queryable, id: string): Promise<void> {
  await q.query('INSERT INTO chat_users (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [id]);
}

/** Unread totals of one user across the channels they are a member of. */
export async function unreadTotals(
  q: Queryable,
  userId: string,
): Promise<{ total_unread_count: number; unread_channels: number }> {
  const { rows } = await q.query<{ total: number; channels: number }>(
    `SELECT coalesce(sum(m.unread_base + c.unread_seq - m.unread_seq), 0)::int AS total,
            count(*) FILTER (WHERE m.unread_base + c.unread_seq - m.unread_seq > 0)::int AS channels
       FROM chat_members m JOIN chat_channels c ON c.cid = m.cid
      WHERE m.user_id = $1 AND ${readableChannelSql('c', 'm')}
        AND NOT (m.muted AND (m.mute_expires IS NULL OR m.mute_expires > now()))`,
    [userId],
  );
  const row = rows[0];
  return { total_unread_count: row?.total ?? 0, unread_channels: row?.channels ?? 0 };
}
