import crypto from 'node:crypto';
import { openStorage, type FileStorage } from '../../src/platform/storage/index.js';
import type { TestServer } from './server.js';

/**
 * A stored upload made the way the upload endpoints make one (migration 0024): the bytes in the server's storage
 * under `uploads/{id}/original` (and `uploads/{id}/thumb`), and the `chat_uploads` row with the sniffed type, size,
 * keys, dimensions and owner. Until the upload endpoints are merged the file tests make uploads with this; it can
 * then call `POST /chat/uploads/file|image` (or the channel's `/file|image`) instead.
 */
export interface TestUpload {
  id: string;
  /** `/chat/files/{id}/{name}`: what a message's attachment names. */
  url: string;
  /** `/chat/files/{id}/thumb` (only when a thumbnail was given). */
  thumbUrl: string;
}

export interface TestUploadInput {
  owner: string;
  bytes: Buffer;
  name: string;
  mimeType: string;
  kind?: 'file' | 'image';
  /** The channel of a channel upload; absent for `/uploads`. */
  cid?: string;
  thumb?: Buffer;
  width?: number;
  height?: number;
  /** Backdates the row (expiry tests). */
  createdAt?: Date;
}

/** The server's storage (the test server's own `DATA_DIR`). */
export function storageOf(server: TestServer): FileStorage {
  return openStorage(server.config);
}

export async function createTestUpload(server: TestServer, input: TestUploadInput): Promise<TestUpload> {
  const id = crypto.randomBytes(12).toString('base64url');
  const storage = storageOf(server);
  const storageKey = `uploads/${id}/original`;
  await storage.put(storageKey, input.bytes, { contentType: input.mimeType });
  let thumbKey: string | null = null;
  if (input.thumb) {
    thumbKey = `uploads/${id}/thumb`;
    await storage.put(thumbKey, input.thumb, { contentType: 'image/webp' });
  }
  await server.db.query(
    `INSERT INTO chat_uploads (id, owner_id, cid, kind, name, mime_type, size, storage_key, thumb_key, width, height,
                               created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, coalesce($12::timestamptz, now()))`,
    [
      id,
      input.owner,
      input.cid ?? null,
      input.kind ?? (input.mimeType.startsWith('image/') ? 'image' : 'file'),
      input.name,
      input.mimeType,
      input.bytes.length,
      storageKey,
      thumbKey,
      input.width ?? null,
      input.height ?? null,
      input.createdAt ?? null,
    ],
  );
  return {
    id,
    url: `/chat/files/${id}/${encodeURIComponent(input.name)}`,
    thumbUrl: `/chat/files/${id}/thumb`,
  };
}
