import { CHAT_LIMITS } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed } from '../errors.js';
import { channelForActor, requireCapability } from '../policy/channel-access.js';
import { presentUser } from '../presenters/user.js';
import { lockSeq, write } from '../realtime/outbox.js';
import { memberIds, setUnreadSql, unreadSql } from '../store/channels.js';
import { getMessage } from '../store/messages.js';
import { getUser, unreadTotals } from '../store/users.js';
import { channelIds } from '../views/messages.js';

/** Messages that count as unread for a member: main-list messages from others after a point. */
const UNREAD_AFTER = `SELECT count(*)::int AS n FROM chat_messages
  WHERE cid = $1 AND seq > $2 AND (parent_id IS NULL OR show_in_channel) AND NOT silent
    AND type NOT IN ('system', 'deleted') AND user_id IS DISTINCT FROM $3`;

function userOnly(actor: Actor): string {
  if (actor.kind !== 'user') throw notAllowed('read state belongs to a user; use a user token');
  return actor.userId;
}

/**
 * `POST /chat/channels/{type}/{id}/read`: reads the channel up to `messageId` (default: the latest message).
 * Emits `message.read` to the channel and `notification.mark_read` (with the new totals) to the reader. A read that
 * changes nothing (the same message read, nothing unread) writes nothing and tells nobody: the answer carries the
 * read state as it stands.
 */
export async function markRead(ctx: ChatContext, actor: Actor, cid: string, messageId?: string) {
  const userId = userOnly(actor);
  return write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    requireCapability(access, 'read-events', 'send read events');
    let seq = Number.MAX_SAFE_INTEGER;
    let readId: string | null = null;
    if (messageId) {
      const m = await getMessage(q, messageId);
      if (!m || m.cid !== cid) throw inputError(`message ${messageId} is not in channel ${cid}`);
      seq = m.seq;
      readId = m.id;
    } else {
      const last = await q.query<{ id: string; seq: number }>(
        `SELECT id, seq FROM chat_messages WHERE cid = $1 AND (parent_id IS NULL OR show_in_channel)
          ORDER BY seq DESC LIMIT 1`,
        [cid],
      );
      readId = last.rows[0]?.id ?? null;
    }
    await lockSeq(q, out, cid);
    const unread = (await q.query<{ n: number }>(UNREAD_AFTER, [cid, seq, userId])).rows[0]?.n ?? 0;
    const held = await q.query<{ last_read: Date; last_read_message_id: string | null; unread: number }>(
      `SELECT m.last_read, m.last_read_message_id, ${unreadSql('m')}::int AS unread
         FROM chat_members m WHERE m.cid = $1 AND m.user_id = $2`,
      [cid, userId],
    );
    const before = held.rows[0];
    const unchanged =
      before !== undefined && before.last_read_message_id === readId && before.unread === unread;
    const now = unchanged ? before.last_read.toISOString() : new Date().toISOString();
    const userRow = await getUser(q, userId);
    const user = userRow ? presentUser(userRow) : { id: userId };
    const ids = channelIds(access.channel);
    const event = {
      type: 'message.read' as const,
      ...ids,
      user,
      ...(readId ? { last_read_message_id: readId } : {}),
      created_at: now,
    };
    if (unchanged) return { event };
    await q.query(
      `UPDATE chat_members m SET last_read = $3, last_read_message_id = $4, ${setUnreadSql('m', '$5')},
              updated_at = now()
        WHERE m.cid = $1 AND m.user_id = $2`,
      [cid, userId, now, readId, unread],
    );
    out.channelEvent(await memberIds(q, cid), event);
    out.notify(userId, {
      type: 'notification.mark_read',
      ...ids,
      user,
      ...(await unreadTotals(q, userId)),
      created_at: now,
    });
    return { event };
  });
}

/** `POST /chat/channels/{type}/{id}/unread`: marks the channel unread from `messageId` on. */
/** Mark unread reaches back at most `CHAT_LIMITS.markUnreadWindow` main-list messages from the newest. */
async function checkUnreadWindow(q: Queryable, cid: string, seq: number): Promise<void> {
  const window = CHAT_LIMITS.markUnreadWindow;
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT 1 FROM chat_messages
        WHERE cid = $1 AND seq >= $2 AND (parent_id IS NULL OR show_in_channel)
        LIMIT $3) newest`,
    [cid, seq, window + 1],
  );
  if ((rows[0]?.n ?? 0) > window) {
    throw inputError(`only the latest ${window} messages can be marked unread`);
  }
}

export async function markUnread(ctx: ChatContext, actor: Actor, cid: string, messageId: string) {
  const userId = userOnly(actor);
  return write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    requireCapability(access, 'read-events', 'mark messages unread');
    const m = await getMessage(q, messageId);
    if (!m || m.cid !== cid) throw inputError(`message ${messageId} is not in channel ${cid}`);
    if (m.parent_id && !m.show_in_channel) throw inputError('only main-list messages can be marked unread');
    await checkUnreadWindow(q, cid, m.seq);
    const prev = await q.query<{ id: string }>(
      `SELECT id FROM chat_messages WHERE cid = $1 AND seq < $2 AND (parent_id IS NULL OR show_in_channel)
        ORDER BY seq DESC LIMIT 1`,
      [cid, m.seq],
    );
    const unread = (await q.query<{ n: number }>(UNREAD_AFTER, [cid, m.seq - 1, userId])).rows[0]?.n ?? 0;
    const lastRead = new Date(m.created_at.getTime() - 1);
    await q.query(
      `UPDATE chat_members m SET last_read = $3, last_read_message_id = $4, ${setUnreadSql('m', '$5')},
              updated_at = now()
        WHERE m.cid = $1 AND m.user_id = $2`,
      [cid, userId, lastRead, prev.rows[0]?.id ?? null, unread],
    );
    const now = new Date().toISOString();
    const event = {
      type: 'notification.mark_unread' as const,
      ...channelIds(access.channel),
      first_unread_message_id: m.id,
      last_read_at: lastRead.toISOString(),
      ...(prev.rows[0] ? { last_read_message_id: prev.rows[0].id } : {}),
      unread_messages: unread,
      ...(await unreadTotals(q, userId)),
      created_at: now,
    };
    out.notify(userId, event);
    return { event };
  });
}
