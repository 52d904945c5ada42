import type { Queryable } from '../../platform/db.js';
import { messageVisibleSql, readableChannelSql } from '../policy/read-access.js';
import { uploadColumns, type UploadRow } from '../uploads/store.js';

export type { UploadRow } from '../uploads/store.js';

/** An upload with what the read rule says about its reader. */
export interface UploadForReader extends UploadRow {
  /** The upload is attached and the viewer may read that message now (policy/read-access). */
  readable: boolean;
}

/**
 * The upload `id` and whether `viewer` (null: the server) may read the message it is attached to: the channel is
 * readable through their member row and the message is visible to them — the read rule's own SQL
 * (`readableChannelSql`, `messageVisibleSql`), never a copy. The message is joined on the upload's channel too, so
 * a row naming a message of another channel reads as nobody's. Soft-deleted messages carry no files.
 */
export async function uploadForReader(
  q: Queryable,
  id: string,
  viewer: string | null,
): Promise<UploadForReader | undefined> {
  const rule = `${readableChannelSql('c', 'm')} AND ${messageVisibleSql({ message: 'x', member: 'm', channel: 'c', viewer: '$2' })}`;
  const { rows } = await q.query<UploadForReader>(
    `SELECT ${uploadColumns('u')}, coalesce(x.id IS NOT NULL AND x.type <> 'deleted'
              AND ($2::text IS NULL OR (m.user_id IS NOT NULL AND ${rule})), false) AS readable
       FROM chat_uploads u
       LEFT JOIN chat_messages x ON x.id = u.message_id AND x.cid = u.cid
       LEFT JOIN chat_channels c ON c.cid = x.cid
       LEFT JOIN chat_members m ON m.cid = x.cid AND m.user_id = $2::text
      WHERE u.id = $1`,
    [id, viewer],
  );
  return rows[0];
}

/**
 * Deletes the upload rows of messages that no longer exist in channel `cid` (a hard delete, with the replies it
 * took along): answers their ids, whose bytes go after the commit.
 */
export async function deleteUploadsOfGoneMessages(q: Queryable, cid: string): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `DELETE FROM chat_uploads u WHERE u.cid = $1 AND u.message_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM chat_messages x WHERE x.id = u.message_id) RETURNING u.id`,
    [cid],
  );
  return rows.map((r) => r.id);
}
