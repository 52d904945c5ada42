import type { Message } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed } from '../errors.js';
import { channelForActor, requireCapability } from '../policy/channel-access.js';
import { lockSeqOfMessage, write } from '../realtime/outbox.js';
import { messageInViewSql } from '../policy/read-access.js';
import { memberIds } from '../store/channels.js';
import type { MessageRow } from '../store/rows.js';
import { channelIds, messageForActor, presentRow, presentRows, viewCutoff } from '../views/messages.js';
import { showFilesOf } from '../files/lifecycle.js';

/** Most messages one `GET .../messages?ids=` answers. */
const MAX_IDS = 100;
/** Pinned messages per page of `GET .../pinned_messages`. */
const PINNED_PAGE_MAX = 100;

/**
 * Recomputes every member's unread count in a channel from their last read (after a delete or undelete changed
 * which messages count): main-list messages of others, not silent, not system or deleted, past their cut-offs.
 */
export async function recountUnread(q: Queryable, cid: string): Promise<void> {
  await q.query(
    `UPDATE chat_members m SET unread_seq = (SELECT uc.unread_seq FROM chat_channels uc WHERE uc.cid = m.cid),
       unread_base = (
       SELECT count(*) FROM chat_messages x JOIN chat_channels c ON c.cid = x.cid
        WHERE x.cid = m.cid AND x.created_at > m.last_read AND (x.parent_id IS NULL OR x.show_in_channel)
          AND NOT x.silent AND x.type NOT IN ('system', 'deleted') AND x.user_id IS DISTINCT FROM m.user_id
          AND ${messageInViewSql({ message: 'x', member: 'm', channel: 'c' })})
     WHERE m.cid = $1`,
    [cid],
  );
}

/** `POST /chat/moderation/flag`: flags someone else's message (flag-message); one flag per user and message. */
export async function flagMessage(ctx: ChatContext, actor: Actor, messageId: string, reason?: string) {
  if (actor.kind !== 'user' || actor.anonymous) throw notAllowed('flags belong to a user; use a user token');
  const { row, access } = await messageForActor(ctx.db, actor, messageId);
  requireCapability(access, 'flag-message', 'flag messages');
  if (row.user_id === actor.userId) throw notAllowed('you cannot flag your own message');
  const { rows } = await ctx.db.query<{ created_at: Date }>(
    `INSERT INTO chat_flags (message_id, user_id, reason) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING RETURNING created_at`,
    [messageId, actor.userId, reason ?? null],
  );
  const flagged = rows[0];
  if (!flagged) throw inputError('you already flagged this message');
  return {
    flag: {
      target_message_id: messageId,
      user: { id: actor.userId },
      ...(reason ? { reason } : {}),
      created_at: flagged.created_at.toISOString(),
    },
  };
}

/**
 * `POST /chat/messages/{id}/undelete`: brings a soft-deleted message back with its content and type (moderators:
 * delete-any-message). Emits `message.undeleted`; unread counts follow.
 */
export async function undeleteMessage(ctx: ChatContext, actor: Actor, messageId: string): Promise<Message> {
  return write(ctx, async (q, out) => {
    await lockSeqOfMessage(q, out, messageId);
    const { row, access } = await messageForActor(q, actor, messageId);
    requireCapability(access, 'delete-any-message', 'undelete messages');
    if (row.type !== 'deleted') throw inputError('the message is not deleted');
    const { rows } = await q.query<MessageRow>(
      `UPDATE chat_messages SET type = coalesce(deleted_type, CASE WHEN parent_id IS NULL THEN 'regular' ELSE 'reply' END),
              deleted_type = NULL, deleted_at = NULL, removed_by_moderator = false, updated_at = now()
        WHERE id = $1 RETURNING *`,
      [messageId],
    );
    await showFilesOf(q, messageId, (rows[0] ?? row).attachments);
    await recountUnread(q, row.cid);
    const message = await presentRow(q, rows[0] ?? row);
    out.channelEvent(await memberIds(q, row.cid), {
      type: 'message.undeleted',
      ...channelIds(access.channel),
      message,
      created_at: message.updated_at,
    });
    return message;
  });
}

/** `GET /chat/channels/{type}/{id}/messages?ids=`: the named messages of the channel, in channel order. */
export async function getMessages(
  ctx: ChatContext,
  actor: Actor,
  cid: string,
  ids: string[],
): Promise<Message[]> {
  if (ids.length > MAX_IDS) throw inputError(`at most ${MAX_IDS} ids per request`);
  const access = await channelForActor(ctx.db, actor, cid);
  const { rows } = await ctx.db.query<MessageRow>(
    `SELECT * FROM chat_messages WHERE cid = $1 AND id = ANY($2) AND ($3::timestamptz IS NULL OR created_at > $3)
      ORDER BY seq`,
    [cid, ids, viewCutoff(access)],
  );
  return presentRows(ctx.db, rows, actor.kind === 'user' ? actor.userId : undefined);
}

/** `GET /chat/channels/{type}/{id}/pinned_messages`: pins in force (expired pins are gone), newest pin first. */
export async function listPinned(
  ctx: ChatContext,
  actor: Actor,
  cid: string,
  limit: number,
  offset: number,
): Promise<Message[]> {
  const access = await channelForActor(ctx.db, actor, cid);
  const { rows } = await ctx.db.query<MessageRow>(
    `SELECT * FROM chat_messages WHERE cid = $1 AND pinned AND type <> 'deleted'
        AND (pin_expires IS NULL OR pin_expires > now()) AND ($4::timestamptz IS NULL OR created_at > $4)
      ORDER BY pinned_at DESC, seq DESC LIMIT $2 OFFSET $3`,
    [cid, Math.min(limit, PINNED_PAGE_MAX), offset, viewCutoff(access)],
  );
  return presentRows(ctx.db, rows, actor.kind === 'user' ? actor.userId : undefined);
}
