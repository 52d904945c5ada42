import { DATE_RANGE, parseRequestDate, type Capability, type Message } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { maxMessageLength } from '../policy/channel-types.js';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed } from '../errors.js';
import { requireCapability, type ChannelAccess } from '../policy/channel-access.js';
import { RESERVED_MESSAGE_FIELDS } from '../presenters/message.js';
import { lockSeqOfMessage, write } from '../realtime/outbox.js';
import { recordEdit } from './message-history.js';
import { attachUploads, checkAttachments } from '../files/attach.js';
import { dropFilesOfGoneMessages, hideFilesOf } from '../files/lifecycle.js';
import { recountUnread } from './message-moderation.js';
import { checkCustomSize, mergedCustom } from './custom.js';
import { checkLength, hasLinks } from './message-send.js';
import { memberIds } from '../store/channels.js';
import { keepPreviousVersion, lockMessageForEdit } from '../store/message-history.js';
import { getMessage } from '../store/messages.js';
import type { MessageRow } from '../store/rows.js';
import { channelIds, messageForActor, presentRow } from '../views/messages.js';

/** Fields of a message an edit may change; the rest of the input is custom data. */
const EDITABLE = new Set(['text', 'attachments', 'mentioned_users', 'pinned', 'pin_expires', 'silent']);

function checkOwnership(
  access: ChannelAccess,
  actor: Actor,
  row: MessageRow,
  own: Capability,
  any: Capability,
  what: string,
) {
  const mine = actor.kind === 'user' && row.user_id === actor.userId;
  if (mine) {
    if (access.caps && !access.caps.has(own) && !access.caps.has(any)) {
      throw notAllowed(`You are not allowed to ${what} this message`);
    }
  } else {
    requireCapability(access, any, `${what} other users' messages`);
  }
}

/** Pin expiry as seconds from now (number), ISO string or null (chat-spec §4 Pin). */
function pinExpiry(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' && value > 0) {
    const at = Date.now() + value * 1000;
    if (at <= DATE_RANGE.max) return new Date(at);
  }
  const date = parseRequestDate(value);
  if (date) return date;
  throw inputError('pin_expires must be seconds from now, an ISO date or null');
}

async function applyEdit(
  q: Queryable,
  actor: Actor,
  row: MessageRow,
  access: ChannelAccess,
  set: Record<string, unknown>,
  unset: string[],
  replaceCustom: boolean,
): Promise<MessageRow> {
  if (row.type === 'deleted') throw inputError('a deleted message cannot be edited');
  for (const k of [...Object.keys(set), ...unset]) {
    if (RESERVED_MESSAGE_FIELDS.has(k) && !EDITABLE.has(k))
      throw inputError(`field "${k}" cannot be updated`);
  }
  const content = Object.keys(set).some((k) => k !== 'pinned' && k !== 'pin_expires') || unset.length > 0;
  if (content) checkOwnership(access, actor, row, 'update-own-message', 'update-any-message', 'update');
  if ('pinned' in set || 'pin_expires' in set) requireCapability(access, 'pin-message', 'pin messages');
  if (typeof set.text === 'string' && hasLinks(set.text))
    requireCapability(access, 'send-links', 'send links');
  if (typeof set.text === 'string') checkLength(set.text, maxMessageLength(access.channel));
  for (const k of ['pinned', 'silent'] as const) {
    if (k in set && typeof set[k] !== 'boolean') throw inputError(`${k} must be true or false`);
  }
  if ('text' in set && typeof set.text !== 'string') throw inputError('text must be a string');
  if ('attachments' in set) checkAttachments(set.attachments);
  if ('mentioned_users' in set && !Array.isArray(set.mentioned_users))
    throw inputError('mentioned_users must be ids');
  const customSet = Object.fromEntries(Object.entries(set).filter(([k]) => !EDITABLE.has(k)));
  const customUnset = unset.filter((k) => !EDITABLE.has(k));
  checkCustomSize('message', replaceCustom ? customSet : mergedCustom(row.custom, customSet, customUnset));
  const pinned = 'pinned' in set ? set.pinned === true : row.pinned;
  const textChanged = typeof set.text === 'string' && set.text !== row.text;
  const { rows } = await q.query<MessageRow>(
    `UPDATE chat_messages SET
       text = $2, attachments = $3, mentioned_users = $4, silent = $5,
       custom = CASE WHEN $6 THEN $7::jsonb ELSE (custom || $7::jsonb) - $8::text[] END,
       pinned = $9, pinned_at = CASE WHEN $9 AND NOT pinned THEN now() WHEN $9 THEN pinned_at END,
       pinned_by_id = CASE WHEN $9 AND NOT pinned THEN $10 WHEN $9 THEN pinned_by_id END,
       pin_expires = CASE WHEN $9 THEN $11::timestamptz END,
       message_text_updated_at = CASE WHEN $12 THEN now() ELSE message_text_updated_at END,
       updated_at = now()
     WHERE id = $1 RETURNING *`,
    [
      row.id,
      typeof set.text === 'string' ? set.text : unset.includes('text') ? '' : row.text,
      JSON.stringify(
        Array.isArray(set.attachments)
          ? set.attachments
          : unset.includes('attachments')
            ? []
            : row.attachments,
      ),
      Array.isArray(set.mentioned_users) ? set.mentioned_users.map(String) : row.mentioned_users,
      typeof set.silent === 'boolean' ? set.silent : row.silent,
      replaceCustom,
      JSON.stringify(customSet),
      customUnset,
      pinned,
      actor.kind === 'user' ? actor.userId : row.user_id,
      pinned ? ('pin_expires' in set ? pinExpiry(set.pin_expires) : row.pin_expires) : null,
      textChanged,
    ],
  );
  const updated = rows[0];
  if (!updated) throw inputError(`message ${row.id} vanished`);
  if ('attachments' in set || unset.includes('attachments')) {
    await attachUploads(q, actor, row.cid, row.id, updated.attachments, true);
  }
  return updated;
}

/**
 * `POST /chat/messages/{id}` (full update: custom data replaced) and `PUT /chat/messages/{id}` (partial:
 * set/unset). Own messages need update-own-message, others' update-any-message, pins pin-message.
 */
export async function updateMessage(
  ctx: ChatContext,
  actor: Actor,
  id: string,
  set: Record<string, unknown>,
  unset: string[],
  full: boolean,
): Promise<Message> {
  return write(ctx, async (q, out) => {
    // The channel first, then the message: every write takes its locks in that order.
    await lockSeqOfMessage(q, out, id);
    await lockMessageForEdit(q, id);
    const { row, access } = await messageForActor(q, actor, id);
    const updated = await applyEdit(q, actor, row, access, set, unset, full);
    await recordEdit(q, actor, row, updated);
    const message = await presentRow(q, updated);
    out.channelEvent(await memberIds(q, row.cid), {
      type: 'message.updated',
      ...channelIds(access.channel),
      message,
      created_at: message.updated_at,
    });
    return message;
  });
}

/**
 * `DELETE /chat/messages/{id}`: soft (type deleted, content cleared), hard (`hard=true`, the row goes), or for me
 * (`delete_for_me=true`, hidden for the actor only) — chat-spec §4 Deletion.
 */
export async function deleteMessage(
  ctx: ChatContext,
  actor: Actor,
  id: string,
  mode: 'soft' | 'hard' | 'for-me',
): Promise<Message> {
  return write(ctx, async (q, out) => {
    if (mode !== 'for-me') await lockSeqOfMessage(q, out, id);
    const { row, access } = await messageForActor(q, actor, id);
    const ids = channelIds(access.channel);
    const now = new Date().toISOString();
    if (mode === 'for-me') {
      if (actor.kind !== 'user') throw inputError('delete_for_me needs a user');
      await q.query(
        'INSERT INTO chat_message_hidden (message_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [id, actor.userId],
      );
      const message = await presentRow(q, row, actor.userId);
      out.notify(actor.userId, {
        type: 'message.deleted',
        ...ids,
        message,
        deleted_for_me: true,
        created_at: now,
      });
      return message;
    }
    checkOwnership(access, actor, row, 'delete-own-message', 'delete-any-message', 'delete');
    // A member (a moderator) deleting someone else's message removes it: visibly, kept in the history, audited. Never
    // a hard delete (that would leave no trace of the words having been there): only the server erases them.
    const removedById = actor.kind === 'user' && row.user_id !== actor.userId ? actor.userId : undefined;
    if (removedById && mode === 'hard') {
      throw notAllowed(
        "Only the server hard-deletes another user's message; a moderator removes it (soft delete)",
      );
    }
    if (removedById) {
      for (const hook of ctx.hooks.messageRemoved) {
        await hook(q, {
          cid: row.cid,
          channel: {
            ...(access.channel.team ? { team: access.channel.team } : {}),
            custom: access.channel.custom,
          },
          messageId: row.id,
          authorId: row.user_id,
          removedById,
        });
      }
    }
    const audience = await memberIds(q, row.cid);
    if (mode === 'hard') {
      const message = await presentRow(q, { ...row, type: 'deleted', deleted_at: new Date(now) });
      await q.query('DELETE FROM chat_messages WHERE id = $1', [id]);
      // Its files (and its replies' files) go with it: rows now, bytes after the commit.
      await dropFilesOfGoneMessages(ctx, q, out, row.cid);
      if (row.parent_id) await bumpReplies(q, row.parent_id, -1);
      await recountUnread(q, row.cid);
      out.channelEvent(audience, {
        type: 'message.deleted',
        ...ids,
        message,
        hard_delete: true,
        created_at: now,
      });
      return message;
    }
    if (removedById && row.type !== 'deleted') await keepPreviousVersion(q, row, removedById, true);
    const { rows } = await q.query<MessageRow>(
      `UPDATE chat_messages SET deleted_type = type, type = 'deleted', pinned = false, pinned_at = NULL,
              pin_expires = NULL, deleted_at = now(), updated_at = now(), removed_by_moderator = $2
        WHERE id = $1 RETURNING *`,
      [id, removedById !== undefined],
    );
    // The content stays in the row (undelete brings it back); presenters never show it, and its files are served to
    // nobody.
    await hideFilesOf(q, [id]);
    await recountUnread(q, row.cid);
    const message = await presentRow(q, rows[0] ?? row);
    out.channelEvent(audience, { type: 'message.deleted', ...ids, message, created_at: now });
    return message;
  });
}

async function bumpReplies(q: Queryable, parentId: string, by: number) {
  if (await getMessage(q, parentId)) {
    await q.query('UPDATE chat_messages SET reply_count = greatest(reply_count + $2, 0) WHERE id = $1', [
      parentId,
      by,
    ]);
  }
}
