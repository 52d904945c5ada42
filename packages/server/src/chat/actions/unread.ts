import type { Actor, ChatContext } from '../context.js';
import { notAllowed } from '../errors.js';
import { requireAdmin } from '../policy/channel-access.js';
import { presentUser } from '../presenters/user.js';
import { iso } from '../presenters/time.js';
import { write } from '../realtime/outbox.js';
import { messageInViewSql, readableChannelSql } from '../policy/read-access.js';
import { memberIds, setUnreadSql } from '../store/channels.js';
import { getUser, unreadTotals } from '../store/users.js';

/** The unread count of member `m` in channel `c` (both joined): see store/channels `unreadSql`. */
const UNREAD = '(m.unread_base + c.unread_seq - m.unread_seq)::int';

interface UnreadChannelRow {
  cid: string;
  type: string;
  unread_count: number;
  last_read: Date;
}

interface UnreadThreadRow {
  parent_id: string;
  cid: string;
  unread_count: number;
  last_read: Date;
  last_read_message_id: string | null;
}

/** Unread counts of one user: totals, per channel (with unread messages) and per thread, and per channel type. */
export async function unreadCounts(ctx: ChatContext, userId: string) {
  const totals = await unreadTotals(ctx.db, userId);
  const channels = await ctx.db.query<UnreadChannelRow>(
    `SELECT m.cid, c.type, ${UNREAD} AS unread_count, m.last_read
       FROM chat_members m JOIN chat_channels c ON c.cid = m.cid
      WHERE m.user_id = $1 AND ${UNREAD} > 0 AND ${readableChannelSql('c', 'm')}
        AND NOT (m.muted AND (m.mute_expires IS NULL OR m.mute_expires > now()))
      ORDER BY m.cid`,
    [userId],
  );
  const threads = await ctx.db.query<UnreadThreadRow>(
    `SELECT t.parent_id, p.cid, t.unread_count, t.last_read, t.last_read_message_id
       FROM chat_thread_reads t JOIN chat_messages p ON p.id = t.parent_id
       JOIN chat_members m ON m.cid = p.cid AND m.user_id = t.user_id JOIN chat_channels c ON c.cid = p.cid
      WHERE t.user_id = $1 AND t.unread_count > 0 AND ${readableChannelSql('c', 'm')}
        AND ${messageInViewSql({ message: 'p', member: 'm', channel: 'c' })}
      ORDER BY t.parent_id`,
    [userId],
  );
  const byType = new Map<string, { channel_count: number; unread_count: number }>();
  for (const c of channels.rows) {
    const t = byType.get(c.type) ?? { channel_count: 0, unread_count: 0 };
    t.channel_count += 1;
    t.unread_count += c.unread_count;
    byType.set(c.type, t);
  }
  return {
    total_unread_count: totals.total_unread_count,
    unread_channels: totals.unread_channels,
    total_unread_threads_count: threads.rows.length,
    channels: channels.rows.map((c) => ({
      channel_id: c.cid,
      unread_count: c.unread_count,
      last_read: iso(c.last_read),
    })),
    channel_type: [...byType].map(([channel_type, t]) => ({ channel_type, ...t })),
    threads: threads.rows.map((t) => ({
      parent_message_id: t.parent_id,
      channel_cid: t.cid,
      unread_count: t.unread_count,
      last_read: iso(t.last_read),
      ...(t.last_read_message_id ? { last_read_message_id: t.last_read_message_id } : {}),
    })),
  };
}

/** `GET /chat/unread`: the caller's counts. */
export async function myUnread(ctx: ChatContext, actor: Actor) {
  if (actor.kind !== 'user')
    throw notAllowed('unread counts are per user; use a user token or /unread_batch');
  return unreadCounts(ctx, actor.userId);
}

/** `POST /chat/unread_batch`: counts of several users (server and admins). */
export async function unreadBatch(ctx: ChatContext, actor: Actor, userIds: string[]) {
  await requireAdmin(ctx.db, actor, 'read other users’ unread counts');
  const counts_by_user: Record<string, Awaited<ReturnType<typeof unreadCounts>>> = {};
  for (const id of new Set(userIds)) counts_by_user[id] = await unreadCounts(ctx, id);
  return { counts_by_user };
}

/**
 * `POST /chat/channels/read`: marks every channel of the caller read (only where read-events is on is irrelevant
 * here: the counts are the caller's own). Emits `message.read` per channel and one `notification.mark_read`.
 */
export async function markAllRead(ctx: ChatContext, actor: Actor) {
  if (actor.kind !== 'user' || actor.anonymous)
    throw notAllowed('read state belongs to a user; use a user token');
  const userId = actor.userId;
  await write(ctx, async (q, out) => {
    // The channels with something unread are locked first, in one order (by cid), before member rows change:
    // their events take the channels' counters (realtime/outbox), and locks go channel first everywhere.
    const locked = await q.query<{ cid: string; last_seq: number }>(
      `SELECT c.cid, c.last_seq FROM chat_channels c JOIN chat_members m ON m.cid = c.cid
        WHERE m.user_id = $1 AND ${UNREAD} > 0 ORDER BY c.cid FOR UPDATE OF c`,
      [userId],
    );
    for (const c of locked.rows) out.locked(c.cid, c.last_seq);
    const { rows } = await q.query<{ cid: string; type: string; id: string }>(
      `UPDATE chat_members m SET last_read = now(), ${setUnreadSql('m', '0')}, updated_at = now(),
              last_read_message_id = (SELECT x.id FROM chat_messages x WHERE x.cid = m.cid
                                        AND (x.parent_id IS NULL OR x.show_in_channel) ORDER BY x.seq DESC LIMIT 1)
         FROM chat_channels c
        WHERE c.cid = m.cid AND m.user_id = $1 AND ${UNREAD} > 0 AND m.cid = ANY($2)
          AND ${readableChannelSql('c', 'm')}
        RETURNING m.cid, c.type, c.id`,
      [userId, locked.rows.map((c) => c.cid)],
    );
    await q.query('UPDATE chat_thread_reads SET unread_count = 0, last_read = now() WHERE user_id = $1', [
      userId,
    ]);
    const row = await getUser(q, userId);
    const user = row ? presentUser(row) : { id: userId };
    const now = new Date().toISOString();
    for (const c of rows) {
      out.channelEvent(await memberIds(q, c.cid), {
        type: 'message.read',
        cid: c.cid,
        channel_id: c.id,
        channel_type: c.type,
        user,
        created_at: now,
      });
    }
    out.notify(userId, {
      type: 'notification.mark_read',
      user,
      ...(await unreadTotals(q, userId)),
      created_at: now,
    });
  });
  return {};
}
