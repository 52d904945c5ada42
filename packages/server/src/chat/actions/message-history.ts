import type { MessageHistoryEntry, MessageHistoryRequest, MessageHistoryResponse } from '@caseroom/protocol';
import { MESSAGE_QUERY_DEFAULT_LIMIT, MESSAGE_REMOVED_TEXT } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor, ChatContext } from '../context.js';
import { messageNotHiddenSql } from '../policy/read-access.js';
import { iso } from '../presenters/time.js';
import { presentUser } from '../presenters/user.js';
import { keepPreviousVersion, pageHistory, type MessageHistoryRow } from '../store/message-history.js';
import type { MessageRow, UserRow } from '../store/rows.js';
import { getUsers } from '../store/users.js';
import { visibleMessageForActor } from '../views/messages.js';

/**
 * After an edit (same transaction): keeps the version it replaced when the text or the attachments changed.
 * Pins, silence, mentions and custom data alone are not new versions.
 */
export async function recordEdit(
  q: Queryable,
  actor: Actor,
  before: MessageRow,
  after: MessageRow,
): Promise<void> {
  const changed =
    before.text !== after.text || JSON.stringify(before.attachments) !== JSON.stringify(after.attachments);
  if (!changed) return;
  await keepPreviousVersion(q, before, actor.kind === 'user' ? actor.userId : null);
}

function presentEntry(row: MessageHistoryRow, users: ReadonlyMap<string, UserRow>): MessageHistoryEntry {
  const by = row.message_updated_by_id ? users.get(row.message_updated_by_id) : undefined;
  return {
    message_id: row.message_id,
    text: row.text,
    attachments: row.attachments,
    ...(row.message_updated_by_id ? { message_updated_by_id: row.message_updated_by_id } : {}),
    ...(by ? { message_updated_by: presentUser(by) } : {}),
    message_updated_at: iso(row.message_updated_at),
  };
}

/**
 * A moderator's removal as a history entry: who removed the message and when, with the removal text in place of
 * the removed words (which stay out of every view while the message is removed).
 */
function presentRemoval(row: MessageHistoryRow, users: ReadonlyMap<string, UserRow>): MessageHistoryEntry {
  const by = row.replaced_by_id ? users.get(row.replaced_by_id) : undefined;
  return {
    message_id: row.message_id,
    text: MESSAGE_REMOVED_TEXT,
    attachments: [],
    ...(row.replaced_by_id ? { message_updated_by_id: row.replaced_by_id } : {}),
    ...(by ? { message_updated_by: presentUser(by) } : {}),
    message_updated_at: iso(row.replaced_at),
    removed_by_moderator: true,
  };
}

/**
 * `POST /chat/messages/history`: the earlier versions of one message, for whoever can read it (code 16 when it
 * does not exist or lies before the caller's cut-off — truncated or cleared history — 17 when the channel is not
 * theirs). A deleted message, or one the caller deleted for themselves, shows no versions: its content is gone
 * from every view, so its old content is too (hard deletes take the versions with the row). A message a moderator
 * removed shows the removal (who, when), never the removed words.
 */
export async function queryMessageHistory(
  ctx: ChatContext,
  actor: Actor,
  req: MessageHistoryRequest,
): Promise<MessageHistoryResponse> {
  const messageId = req.filter.message_id.$eq;
  const { row } = await visibleMessageForActor(ctx.db, actor, messageId);
  const removed = row.type === 'deleted' && row.removed_by_moderator === true;
  if (row.type === 'deleted' && !removed) return { message_history: [] };
  if (actor.kind === 'user') {
    const hidden = await ctx.db.query(
      `SELECT 1 FROM chat_messages x WHERE x.id = $1 AND NOT ${messageNotHiddenSql('x', '$2')}`,
      [messageId, actor.userId],
    );
    if (hidden.rows.length > 0) return { message_history: [] };
  }
  const page = await pageHistory(ctx.db, messageId, {
    desc: (req.sort?.[0]?.direction ?? -1) === -1,
    limit: req.limit ?? MESSAGE_QUERY_DEFAULT_LIMIT,
    next: req.next,
    prev: req.prev,
    removalsOnly: removed,
  });
  const users = await getUsers(
    ctx.db,
    page.rows.flatMap((r) => [r.message_updated_by_id, r.replaced_by_id].filter((u) => u !== null)),
  );
  return {
    message_history: page.rows.map((r) => (removed ? presentRemoval(r, users) : presentEntry(r, users))),
    ...(page.next ? { next: page.next } : {}),
    ...(page.prev ? { prev: page.prev } : {}),
  };
}
