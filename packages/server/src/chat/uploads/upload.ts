import crypto from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { chatFileIdOf, CHAT_FILE_PATH_PREFIX, type UploadResponse } from '@caseroom/protocol';
import {
  DECODABLE_IMAGE_TYPES,
  ImageRefused,
  probeAv,
  processImage,
  type AvFacts,
} from '../../platform/media.js';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed, notFound } from '../errors.js';
import { checkSize, checkTypeAllowed, typeRefused } from './checks.js';
import { tempPath, uploadTempDir, type ReceivedFile } from './receive.js';
import { uploadConfigOf, sizeLimitOf, type UploadKind } from './settings.js';
import { extensionOf, hasMarkup, mismatchOf, sniffType, type SniffedType } from './sniff.js';
import { deleteUnattached, getUpload, insertUpload, uploadKeys, type NewUpload } from './store.js';

/**
 * Uploads (chat-spec §7 Uploads, `/file` and `/image`): a file is received into a temporary file, typed from its
 * content, checked against the app's configuration, cleaned (images re-encoded without metadata), measured (image
 * size, media duration), stored with its thumbnail or poster, and recorded in `chat_uploads` as its owner's until a
 * message carries it. Nothing is stored for a refused file.
 */

/** What an upload is for: the endpoint's kind and, for `/channels/{type}/{id}/...`, the channel. */
export interface UploadTarget {
  kind: UploadKind;
  cid: string | null;
}

/** The URL of a stored file (`/chat/files/{id}/{name}`) and of its thumbnail (`/chat/files/{id}/thumb`). */
export const fileUrlOf = (id: string, name: string) =>
  `${CHAT_FILE_PATH_PREFIX}${id}/${encodeURIComponent(name)}`;
export const thumbUrlOf = (id: string) => `${CHAT_FILE_PATH_PREFIX}${id}/thumb`;

/** A new upload id: 16 random bytes, URL-safe (22 characters). */
const newUploadId = () => crypto.randomBytes(16).toString('base64url');

/** Who owns an upload: the caller, or for the server the `user` (JSON `{"id"}`) or `user_id` field it sent. */
function ownerOf(actor: Actor, fields: Record<string, string>): string {
  if (actor.kind === 'user') return actor.userId;
  let id = fields.user_id;
  if (!id && fields.user) {
    try {
      id = (JSON.parse(fields.user) as { id?: unknown }).id as string | undefined;
    } catch {
      throw inputError('user must be JSON with an id');
    }
  }
  if (typeof id !== 'string' || !id) throw inputError('server-side uploads name their owner (user_id)');
  return id;
}

/** Images `/image` takes: raster types sharp decodes. Anything else there is a type refusal. */
function checkKind(kind: UploadKind, sniffed: SniffedType, nameExt: string): void {
  if (kind === 'image' && !DECODABLE_IMAGE_TYPES.has(sniffed.mime)) {
    throw typeRefused(
      `File extension .${nameExt || sniffed.ext || '(none)'} is not an image type that can be uploaded ` +
        `(${sniffed.mime}); images must be JPEG, PNG, GIF, WebP or AVIF`,
    );
  }
}

interface Prepared {
  /** The file to store (the received one, or the clean re-encoded copy). */
  path: string;
  size: number;
  width?: number;
  height?: number;
  duration?: number;
  thumb?: Buffer;
}

const isAv = (mime: string) => mime.startsWith('video/') || mime.startsWith('audio/');

/**
 * Audio and video facts (ffprobe), and the type they reveal: a container file-type calls video (WebM, MP4) that
 * holds sound only is audio, a voice recording.
 */
async function probed(ctx: ChatContext, file: string, sniffed: SniffedType) {
  if (!isAv(sniffed.mime)) return { sniffed, av: undefined };
  const av = await probeAv(ctx.config.media, file, sniffed.mime.startsWith('video/'));
  const soundOnly = sniffed.mime.startsWith('video/') && av.hasVideo === false;
  return {
    sniffed: soundOnly ? { ...sniffed, mime: sniffed.mime.replace(/^video\//, 'audio/') } : sniffed,
    av,
  };
}

/** Re-encodes an image (refusing polyglots, bombs and unreadable content); takes the audio/video facts. */
async function prepare(received: ReceivedFile, sniffed: SniffedType, dir: string, av: AvFacts | undefined) {
  const shown = `.${extensionOf(received.name) || sniffed.ext || '(none)'}`;
  const out: Prepared = { path: received.path, size: received.size };
  if (DECODABLE_IMAGE_TYPES.has(sniffed.mime)) {
    if (await hasMarkup(received.path)) {
      throw typeRefused(`File extension ${shown}: the image also holds markup (a polyglot) and is refused`);
    }
    const clean = tempPath(dir, '.img');
    try {
      const image = await processImage(received.path, clean, sniffed.mime);
      const stat = await fs.stat(clean);
      return {
        ...out,
        path: clean,
        size: stat.size,
        width: image.width,
        height: image.height,
        thumb: image.thumb,
      };
    } catch (err) {
      await fs.rm(clean, { force: true });
      if (!(err instanceof ImageRefused)) throw err;
      if (err.tooLarge) throw inputError(`Image ${shown} refused: ${err.message}`);
      throw typeRefused(`File extension ${shown}: ${err.message}`);
    }
  }
  if (av) {
    return { ...out, duration: av.duration, width: av.width, height: av.height, thumb: av.poster };
  }
  return out;
}

/** The answer of an upload. */
function presentUpload(row: NewUpload): UploadResponse {
  const answer: UploadResponse = {
    file: fileUrlOf(row.id, row.name),
    mime_type: row.mime_type,
    file_size: row.size,
  };
  if (row.thumb_key) answer.thumb_url = thumbUrlOf(row.id);
  if (row.duration !== null) answer.duration = row.duration;
  if (row.width !== null) answer.original_width = row.width;
  if (row.height !== null) answer.original_height = row.height;
  return answer;
}

/**
 * Accepts one upload: `receive(limit)` streams the request's file into a temporary file (see receive.ts); the
 * rest is checked, cleaned, stored and recorded here. The temporary files are removed whatever happens.
 */
export async function acceptUpload(
  ctx: ChatContext,
  actor: Actor,
  target: UploadTarget,
  receive: (dir: string, limit: number) => Promise<ReceivedFile>,
): Promise<UploadResponse> {
  const config = await uploadConfigOf(ctx.db, target.kind);
  const dir = await uploadTempDir(ctx.config.dataDir);
  const received = await receive(dir, sizeLimitOf(config));
  let prepared: Prepared | undefined;
  try {
    const owner = ownerOf(actor, received.fields);
    checkSize(config, received.size);
    const nameExt = extensionOf(received.name);
    const typed = await sniffType(received.path, received.name);
    const mismatch = mismatchOf(nameExt, typed);
    if (mismatch) throw typeRefused(mismatch);
    checkKind(target.kind, typed, nameExt);
    const { sniffed, av } = await probed(ctx, received.path, typed);
    checkTypeAllowed(config, nameExt, sniffed);
    prepared = await prepare(received, sniffed, dir, av);
    const id = newUploadId();
    const keys = uploadKeys(id);
    const row: NewUpload = {
      id,
      owner_id: owner,
      cid: target.cid,
      kind: target.kind,
      name: received.name,
      mime_type: sniffed.mime,
      size: prepared.size,
      storage_key: keys.original,
      thumb_key: prepared.thumb ? keys.thumb : null,
      width: prepared.width ?? null,
      height: prepared.height ?? null,
      duration: prepared.duration ?? null,
    };
    try {
      await ctx.storage.put(keys.original, createReadStream(prepared.path), { contentType: row.mime_type });
      if (prepared.thumb) await ctx.storage.put(keys.thumb, prepared.thumb, { contentType: 'image/webp' });
      await insertUpload(ctx.db, row);
    } catch (err) {
      await ctx.storage.deletePrefix(keys.prefix).catch(() => undefined);
      throw err;
    }
    return presentUpload(row);
  } finally {
    await fs.rm(received.path, { force: true });
    if (prepared && prepared.path !== received.path) await fs.rm(prepared.path, { force: true });
  }
}

/**
 * `DELETE .../file|image?url=`: removes the caller's own upload while no message carries it (code 17 otherwise,
 * code 16 for an unknown URL). `cid`: the channel of a channel route (the upload must be that channel's).
 */
export async function deleteUpload(ctx: ChatContext, actor: Actor, url: string, cid: string | null) {
  const id = chatFileIdOf(url);
  const row = id ? await getUpload(ctx.db, id) : undefined;
  if (!id || !row || (cid !== null && row.cid !== cid)) throw notFound(`File ${url} does not exist`);
  const owner = actor.kind === 'user' ? actor.userId : null;
  if (owner !== null && row.owner_id !== owner) throw notAllowed('only the uploader may delete this file');
  if (!(await deleteUnattached(ctx.db, id, owner))) {
    throw notAllowed('the file is attached to a message: delete the message instead');
  }
  await ctx.storage.deletePrefix(uploadKeys(id).prefix);
  return {};
}
