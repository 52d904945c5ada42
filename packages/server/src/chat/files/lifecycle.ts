import { ATTACHMENT_CONSTANTS } from '@caseroom/protocol';
import type { Platform } from '../../platform/context.js';
import type { Queryable } from '../../platform/db.js';
import type { Outbox } from '../realtime/outbox.js';
import { fileRefsOf } from './attach.js';
import { deleteUploadsOfGoneMessages } from './store.js';
import { uploadKeys } from '../uploads/store.js';

/**
 * Removes the stored bytes of uploads whose rows are gone (original, thumbnail, resized variants). Runs after the
 * commit; a failure is logged and never fails the request (the bytes are unreachable: no row serves them).
 */
export async function removeStoredFiles(
  ctx: Pick<Platform, 'storage' | 'log'>,
  ids: string[],
): Promise<void> {
  for (const id of ids) {
    try {
      await ctx.storage.deletePrefix(uploadKeys(id).prefix);
    } catch (err) {
      ctx.log.warn({ err, upload: id }, 'deleting a stored file failed');
    }
  }
}

/**
 * After a hard delete in channel `cid` (in its transaction): the rows of the files of messages now gone (the
 * message and the replies it took along) are deleted, their bytes after the commit.
 */
export async function dropFilesOfGoneMessages(
  ctx: Pick<Platform, 'storage' | 'log'>,
  q: Queryable,
  out: Outbox,
  cid: string,
): Promise<void> {
  const ids = await deleteUploadsOfGoneMessages(q, cid);
  if (ids.length > 0) out.afterCommit.push(() => removeStoredFiles(ctx, ids));
}

/** Uploads of channel `cid` (before a hard delete of the channel cascades them): their bytes go after the commit. */
export async function dropFilesOfChannel(
  ctx: Pick<Platform, 'storage' | 'log'>,
  q: Queryable,
  out: Outbox,
  cid: string,
): Promise<void> {
  const { rows } = await q.query<{ id: string }>('DELETE FROM chat_uploads WHERE cid = $1 RETURNING id', [
    cid,
  ]);
  const ids = rows.map((r) => r.id);
  if (ids.length > 0) out.afterCommit.push(() => removeStoredFiles(ctx, ids));
}

/** Hides the files of soft-deleted (or removed) messages `ids`: served to nobody, kept for an undelete. */
export async function hideFilesOf(q: Queryable, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await q.query(`UPDATE chat_uploads SET state = 'hidden' WHERE message_id = ANY($1::text[])`, [messageIds]);
}

/** After an undelete: the files the message still names are served again. */
export async function showFilesOf(q: Queryable, messageId: string, attachments: unknown): Promise<void> {
  const ids = [...fileRefsOf(attachments).keys()];
  if (ids.length === 0) return;
  await q.query(`UPDATE chat_uploads SET state = 'active' WHERE message_id = $1 AND id = ANY($2::text[])`, [
    messageId,
    ids,
  ]);
}

/** Rows deleted per run of the expiry job (the next run takes the rest). */
const EXPIRE_BATCH = 1000;

/**
 * The `expire-uploads` job (chat/jobs): uploads never attached to a message within
 * `ATTACHMENT_CONSTANTS.unattachedUploadTtlMs` (`ttlMs`), and uploads whose message is gone by a path that left them
 * behind, lose their rows, then their bytes. Answers how many went.
 */
export async function expireUploads(
  ctx: Pick<Platform, 'db' | 'storage' | 'log'>,
  now: Date,
  ttlMs: number = ATTACHMENT_CONSTANTS.unattachedUploadTtlMs,
): Promise<number> {
  const { rows } = await ctx.db.query<{ id: string }>(
    `DELETE FROM chat_uploads d WHERE d.id IN (
       SELECT u.id FROM chat_uploads u
        WHERE (u.message_id IS NULL AND u.created_at < $1::timestamptz - make_interval(secs => $2))
           OR (u.message_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM chat_messages x WHERE x.id = u.message_id))
        LIMIT $3)
       -- checked again on the row as it is now (a send may have attached it meanwhile)
       AND (d.message_id IS NULL OR NOT EXISTS (SELECT 1 FROM chat_messages y WHERE y.id = d.message_id))
     RETURNING d.id AS id`,
    [now, ttlMs / 1000, EXPIRE_BATCH],
  );
  const ids = rows.map((r) => r.id);
  await removeStoredFiles(ctx, ids);
  return ids.length;
}
