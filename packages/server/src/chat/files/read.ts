import type { Actor, ChatContext } from '../context.js';
import { notFound } from '../errors.js';
import { chooseSize, ensureVariant } from './resize.js';
import { uploadForReader, type UploadRow } from './store.js';

/** What a file request asks for: the original (maybe resized) or the thumbnail / poster. */
export interface FileAsk {
  id: string;
  thumb: boolean;
  w?: number | undefined;
  h?: number | undefined;
}

/** A stored object to send, with what the answer says about it. */
export interface FileToSend {
  upload: UploadRow;
  key: string;
  /** `original` (the stored type), `thumb` or a resized variant (image types read from their bytes). */
  variant: 'original' | 'thumb' | `w${number}`;
}

/**
 * The upload `id` if the actor may read it now (docs/security.md "Stored files"): an unattached upload only its
 * owner (and the server); an attached one whoever may read its message under the read rule (policy/read-access:
 * the channel readable through their member row, the message visible to them); a hidden one nobody. Everyone else
 * gets 404 (code 16), whether the file exists or not: its id tells nothing.
 */
export async function readableUpload(ctx: ChatContext, actor: Actor, id: string): Promise<UploadRow> {
  const viewer = actor.kind === 'user' ? actor.userId : null;
  const found = await uploadForReader(ctx.db, id, viewer);
  const allowed =
    found !== undefined &&
    found.state === 'active' &&
    (found.message_id === null ? viewer === null || found.owner_id === viewer : found.readable);
  if (!found || !allowed) throw notFound(`File "${id}" does not exist`);
  const { readable: _readable, ...upload } = found;
  return upload;
}

/** The object a readable file request is answered with (a resized variant is rendered and stored once). */
export async function fileToSend(ctx: ChatContext, actor: Actor, ask: FileAsk): Promise<FileToSend> {
  const upload = await readableUpload(ctx, actor, ask.id);
  if (ask.thumb) {
    if (!upload.thumb_key) throw notFound(`File "${ask.id}" has no thumbnail`);
    return { upload, key: upload.thumb_key, variant: 'thumb' };
  }
  const choice = chooseSize(upload, ask.w, ask.h);
  if (choice.from === 'thumb' && upload.thumb_key) return { upload, key: upload.thumb_key, variant: 'thumb' };
  if (choice.from === 'variant') {
    try {
      const key = await ensureVariant(ctx.storage, ctx.log, upload, choice.width);
      return { upload, key, variant: `w${choice.width}` };
    } catch {
      // An image sharp cannot render (logged by ensureVariant) is served as stored: a resize is an optimisation.
    }
  }
  return { upload, key: upload.storage_key, variant: 'original' };
}
