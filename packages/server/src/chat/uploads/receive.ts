import crypto from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { inputError } from '../errors.js';
import { tooLarge } from './checks.js';

/**
 * Takes the file part of a multipart upload (`@fastify/multipart`, busboy underneath) and streams it into a
 * temporary file while counting its bytes: memory stays flat whatever the file's size. The part is cut at
 * `limit + 1` bytes (busboy then discards the rest of the body), so a file over the limit is known without reading
 * it all, and nothing of it is kept.
 */

export interface ReceivedFile {
  /** The temporary file (the caller removes it). */
  path: string;
  size: number;
  /** The file name the client gave, made safe ({@link safeFileName}). */
  name: string;
  /** Text fields sent before the file part (`user` for server-side uploads). */
  fields: Record<string, string>;
}

/** Characters that must not reach a stored name: controls, path separators, bidirectional overrides. */
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const UNSAFE_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f/\\\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const MAX_NAME_LENGTH = 200;

/**
 * A file name safe to store, show and put in a URL: the last path segment, without control characters and
 * direction overrides (`invoice\u202Efdp.exe`), at most 200 characters keeping the extension; `file` when nothing
 * is left.
 */
export function safeFileName(raw: string | undefined): string {
  const last = (raw ?? '').split(/[/\\]/).pop() ?? '';
  let name = last.normalize('NFC').replace(UNSAFE_NAME_CHARS, '').trim();
  name = name.replace(/^\.+/, '');
  if (name.length > MAX_NAME_LENGTH) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, MAX_NAME_LENGTH - ext.length) + ext;
  }
  return name || 'file';
}

/** Where temporary uploads go: `DATA_DIR/tmp/uploads`. */
export async function uploadTempDir(dataDir: string): Promise<string> {
  const dir = path.join(dataDir, 'tmp', 'uploads');
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

/** Temporary uploads older than this are leftovers of a crash (no upload takes an hour between its steps). */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Removes temporary upload files a crashed process left behind (older than an hour: nodes sharing `DATA_DIR` may be
 * receiving files right now). Run at start; failures are only logged by the caller.
 */
export async function sweepUploadTemp(dataDir: string, now = Date.now()): Promise<number> {
  const dir = await uploadTempDir(dataDir);
  let removed = 0;
  for (const entry of await fs.readdir(dir)) {
    const file = path.join(dir, entry);
    const info = await fs.stat(file).catch(() => undefined);
    if (info && now - info.mtimeMs > STALE_TEMP_MS) {
      await fs.rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

/** A fresh temporary file path in `dir`. */
export const tempPath = (dir: string, suffix = '') =>
  path.join(dir, `${crypto.randomBytes(12).toString('hex')}${suffix}`);

/**
 * Streams the request's file part into a temporary file under `dir`. Throws code 4 without a file part and code 22
 * (nothing kept) when it is larger than `limit` bytes.
 */
export async function receiveFile(req: FastifyRequest, dir: string, limit: number): Promise<ReceivedFile> {
  if (!req.isMultipart()) throw inputError('the upload must be multipart/form-data with a "file" part');
  const part = await req.file({ limits: { fileSize: limit + 1, files: 1 }, throwFileSizeLimit: false });
  if (!part) throw inputError('File is required for upload attachment');
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(part.fields)) {
    const one = Array.isArray(value) ? value[0] : value;
    if (one && one.type === 'field' && typeof one.value === 'string') fields[key] = one.value;
  }
  const file = tempPath(dir);
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(part.file, counter, createWriteStream(file, { flags: 'wx' }));
    if (part.file.truncated || size > limit) throw tooLarge(limit);
  } catch (err) {
    await fs.rm(file, { force: true });
    throw err;
  }
  return { path: file, size, name: safeFileName(part.filename), fields };
}
