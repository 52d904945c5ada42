import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { openStorage, type FileStorage } from '../../src/platform/storage/index.js';
import type { TestServer } from './server.js';
import { checkAnswer } from './wire-contract.js';
import type { Reply } from '../chat-support.js';

/**
 * A stored upload made the way the upload endpoints make one (migration 0024): the bytes in the server's storage
 * under `uploads/{id}/original` (and `uploads/{id}/thumb`), and the `chat_uploads` row with the sniffed type, size,
 * keys, dimensions and owner. The file tests make uploads of exact shapes with it (types, sizes and dimensions the
 * endpoints would not produce from small test bytes); `uploadAs` below goes through the real endpoints.
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

/** Who calls: a chat token (user or server), or an anonymous connection. */
export type UploadAuth = { token: string } | { authType: 'anonymous' };

/**
 * Sends a real multipart upload (`FormData` + `fetch`, as a browser does) to a chat upload route; the answer is
 * checked against the protocol like every chat answer.
 */
export async function uploadAs<T = Record<string, unknown>>(
  server: TestServer,
  auth: UploadAuth,
  path: string,
  content: Uint8Array | Blob,
  name: string,
  options: { type?: string; fields?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const url = new URL(`/chat${path}`, server.url);
  url.searchParams.set('api_key', server.config.chatApiKey);
  const headers: Record<string, string> =
    'token' in auth ? { authorization: auth.token, 'auth-type': 'jwt' } : { 'auth-type': 'anonymous' };
  const form = new FormData();
  for (const [k, v] of Object.entries(options.fields ?? {})) form.append(k, v);
  const blob =
    content instanceof Blob
      ? content
      : new Blob([new Uint8Array(content)], { type: options.type ?? 'application/octet-stream' });
  form.append('file', blob, name);
  const res = await fetch(url, { method: 'POST', headers, body: form });
  const text = await res.text();
  const body: unknown = text ? JSON.parse(text) : {};
  checkAnswer('POST', url.pathname, res.status, body);
  return { status: res.status, body: body as T };
}

/** The bytes stored under `key`, or undefined when there are none. */
export async function storedBytes(storage: FileStorage, key: string): Promise<Buffer | undefined> {
  const stream = await storage.get(key);
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
