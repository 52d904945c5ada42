import type { Queryable } from '../../platform/db.js';
import type { UploadKind } from './settings.js';

/** One row of `chat_uploads` (migration 0024). */
export interface UploadRow {
  id: string;
  owner_id: string;
  cid: string | null;
  kind: UploadKind;
  name: string;
  mime_type: string;
  size: number;
  storage_key: string;
  thumb_key: string | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  message_id: string | null;
  state: 'active' | 'hidden';
}

/** Storage keys of an upload: the file and its thumbnail or poster (all under `uploads/{id}/`). */
export const uploadKeys = (id: string) => ({
  prefix: `uploads/${id}`,
  original: `uploads/${id}/original`,
  thumb: `uploads/${id}/thumb`,
});

export type NewUpload = Omit<UploadRow, 'message_id' | 'state'>;

export async function insertUpload(q: Queryable, row: NewUpload): Promise<void> {
  await q.query(
    `INSERT INTO chat_uploads (id, owner_id, cid, kind, name, mime_type, size, storage_key, thumb_key, width, height,
       duration)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      row.id,
      row.owner_id,
      row.cid,
      row.kind,
      row.name,
      row.mime_type,
      row.size,
      row.storage_key,
      row.thumb_key,
      row.width,
      row.height,
      row.duration,
    ],
  );
}

const UPLOAD_COLUMNS =
  'id owner_id cid kind name mime_type storage_key thumb_key width height duration message_id state';

/** The columns of an {@link UploadRow}, read from the `chat_uploads` row named `alias` (`size` as a number). */
export const uploadColumns = (alias: string): string =>
  [...UPLOAD_COLUMNS.split(' ').map((column) => `${alias}.${column}`), `${alias}.size::float8 AS size`].join(
    ', ',
  );

export async function getUpload(q: Queryable, id: string): Promise<UploadRow | undefined> {
  const { rows } = await q.query<UploadRow>(
    `SELECT ${uploadColumns('u')} FROM chat_uploads u WHERE u.id = $1`,
    [id],
  );
  return rows[0];
}

/**
 * Deletes the upload if `ownerId` owns it and no message carries it (one statement: an upload attached meanwhile is
 * kept). Answers whether it was deleted.
 */
export async function deleteUnattached(q: Queryable, id: string, ownerId: string | null): Promise<boolean> {
  const { rowCount } = await q.query(
    `DELETE FROM chat_uploads WHERE id = $1 AND message_id IS NULL AND ($2::text IS NULL OR owner_id = $2)`,
    [id, ownerId],
  );
  return (rowCount ?? 0) > 0;
}
