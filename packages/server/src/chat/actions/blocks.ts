import { CustomEvent, isReservedEventType } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor, ChatContext } from '../context.js';
import { inputError, invalidInput, notAllowed, notFound } from '../errors.js';
import { requireAdmin } from '../policy/channel-access.js';
import { write } from '../realtime/outbox.js';
import { getUser } from '../store/users.js';

/**
 * Blocking (`/chat/users/block`). A block ends the direct conversation: in every two-person channel of the pair,
 * neither may send messages any more (code 17), and the channel is hidden and shown `blocked: true` for the one
 * who blocked. Group channels stay as they are: case work goes on there, and moderators have bans for abuse.
 * Unblocking lifts all of it (the channel shows again). Blocks are private: the blocked user is not told.
 */

/** The user acting: a user for themselves, or the server / an admin for `user_id`. */
async function blockerOf(ctx: ChatContext, actor: Actor, userId: string | undefined): Promise<string> {
  if (actor.kind === 'user' && !actor.anonymous && (userId === undefined || userId === actor.userId)) {
    return actor.userId;
  }
  await requireAdmin(ctx.db, actor, 'block on behalf of another user');
  if (!userId) throw inputError('user_id is required with a server token');
  if (!(await getUser(ctx.db, userId))) throw notFound(`User "${userId}" does not exist`);
  return userId;
}

/** Two-person channels of the pair (by their current members). */
async function pairChannels(q: Queryable, a: string, b: string): Promise<string[]> {
  const { rows } = await q.query<{ cid: string }>(
    `SELECT ma.cid FROM chat_members ma JOIN chat_members mb ON mb.cid = ma.cid AND mb.user_id = $2
      WHERE ma.user_id = $1 AND (SELECT count(*) FROM chat_members x WHERE x.cid = ma.cid) = 2`,
    [a, b],
  );
  return rows.map((r) => r.cid);
}

export async function blockUser(
  ctx: ChatContext,
  actor: Actor,
  blockedId: string,
  userId?: string,
): Promise<{ blocked_by_user_id: string; blocked_user_id: string; created_at: string }> {
  const blocker = await blockerOf(ctx, actor, userId);
  if (blocker === blockedId) throw inputError('you cannot block yourself');
  if (!(await getUser(ctx.db, blockedId))) throw notFound(`User "${blockedId}" does not exist`);
  return write(ctx, async (q, out) => {
    const { rows } = await q.query<{ created_at: Date }>(
      `INSERT INTO chat_user_blocks (user_id, blocked_user_id) VALUES ($1, $2)
       ON CONFLICT (user_id, blocked_user_id) DO UPDATE SET user_id = EXCLUDED.user_id RETURNING created_at`,
      [blocker, blockedId],
    );
    for (const cid of await pairChannels(q, blocker, blockedId)) {
      await q.query(
        'UPDATE chat_members SET blocked = true, hidden = true, updated_at = now() WHERE cid = $1 AND user_id = $2',
        [cid, blocker],
      );
      const [type = '', id = ''] = cid.split(':');
      out.notify(blocker, {
        type: 'channel.hidden',
        cid,
        channel_id: id,
        channel_type: type,
        clear_history: false,
        created_at: new Date().toISOString(),
      });
    }
    return {
      blocked_by_user_id: blocker,
      blocked_user_id: blockedId,
      created_at: (rows[0]?.created_at ?? new Date()).toISOString(),
    };
  });
}

export async function unblockUser(ctx: ChatContext, actor: Actor, blockedId: string, userId?: string) {
  const blocker = await blockerOf(ctx, actor, userId);
  await write(ctx, async (q, out) => {
    const { rowCount } = await q.query(
      'DELETE FROM chat_user_blocks WHERE user_id = $1 AND blocked_user_id = $2',
      [blocker, blockedId],
    );
    if (rowCount === 0) throw notFound(`User "${blockedId}" is not blocked`);
    for (const cid of await pairChannels(q, blocker, blockedId)) {
      await q.query(
        `UPDATE chat_members SET blocked = false, hidden = false, updated_at = now()
          WHERE cid = $1 AND user_id = $2 AND blocked`,
        [cid, blocker],
      );
      const [type = '', id = ''] = cid.split(':');
      out.notify(blocker, {
        type: 'channel.visible',
        cid,
        channel_id: id,
        channel_type: type,
        created_at: new Date().toISOString(),
      });
    }
  });
}

export async function listBlocks(ctx: ChatContext, actor: Actor, userId?: string) {
  const blocker = await blockerOf(ctx, actor, userId);
  const { rows } = await ctx.db.query<{ user_id: string; blocked_user_id: string; created_at: Date }>(
    'SELECT * FROM chat_user_blocks WHERE user_id = $1 ORDER BY created_at, blocked_user_id',
    [blocker],
  );
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}

/** Code 17 when a block stands between the two members of a two-person channel (either way). */
export async function checkNotBlocked(
  q: Queryable,
  cid: string,
  memberCount: number,
  senderId: string | null,
) {
  if (memberCount !== 2 || !senderId) return;
  const { rowCount } = await q.query(
    `SELECT 1 FROM chat_members o JOIN chat_user_blocks b
         ON (b.user_id = o.user_id AND b.blocked_user_id = $2) OR (b.user_id = $2 AND b.blocked_user_id = o.user_id)
      WHERE o.cid = $1 AND o.user_id <> $2 LIMIT 1`,
    [cid, senderId],
  );
  if (rowCount > 0)
    throw notAllowed('You cannot send messages in this conversation: one of you blocked the other');
}

/**
 * `POST /chat/users/{id}/event` (server or admin): a custom event to one user's own connections, not kept for
 * sync. The type may not impersonate a server event (no `.` namespace of ours: message., channel., user., ...).
 */
export async function sendUserEvent(
  ctx: ChatContext,
  actor: Actor,
  userId: string,
  event: { type: string } & Record<string, unknown>,
) {
  await requireAdmin(ctx.db, actor, 'send user events');
  if (isReservedEventType(event.type)) {
    throw inputError(`event type "${event.type}" is reserved for the server`);
  }
  const parsed = CustomEvent.safeParse({ ...event, user_id: userId, created_at: new Date().toISOString() });
  if (!parsed.success) throw invalidInput(parsed.error);
  const wire = parsed.data;
  await ctx.realtime.publish([{ users: [userId], event: wire }]);
  return { event: wire };
}
