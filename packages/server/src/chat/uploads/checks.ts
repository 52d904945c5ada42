import { ChatErrorCode, type UploadConfig } from '@caseroom/protocol';
import { ChatError, inputError } from '../errors.js';
import { sizeLimitOf } from './settings.js';
import type { SniffedType } from './sniff.js';

/**
 * The app's upload configuration applied to what the file really is (chat-spec §5 Uploads). Refusals use the codes
 * the SDK maps (§5 "Server error mapping"): a type refusal is code 4 and says "file extension" (-> `file-extension`),
 * a size refusal is code 22 / HTTP 413 and says "bytes" (-> `file-size`).
 */

/** Spellings of one extension that count as the same for the allow and block lists. */
const ALIASES: Record<string, string> = { jpeg: 'jpg', jpe: 'jpg', jfif: 'jpg', tif: 'tiff', htm: 'html' };
const canonical = (ext: string) => ALIASES[ext] ?? ext;

/** A type refusal: code 4 mentioning "file extension". */
export const typeRefused = (message: string) => inputError(message);

/** Code 22 (HTTP 413): the file is larger than the limit. */
export function tooLarge(limit: number): ChatError {
  return new ChatError(
    ChatErrorCode.PayloadTooBig,
    `File is too large: the maximum file size is ${limit} bytes`,
    413,
  );
}

function listHas(list: readonly string[] | undefined, ext: string): boolean {
  return !!list?.some((entry) => canonical(entry.replace(/^\./, '')) === canonical(ext));
}

function mimeMatches(list: readonly string[] | undefined, mime: string): boolean {
  return !!list?.some((entry) =>
    entry.endsWith('/*') ? mime.startsWith(entry.slice(0, -1)) : entry === mime,
  );
}

/**
 * Checks a file's extensions (its name's and its content's) and its sniffed MIME type against `config`; throws
 * code 4 naming the file extension when one is blocked or not allowed.
 */
export function checkTypeAllowed(config: UploadConfig, nameExt: string, sniffed: SniffedType): void {
  const shown = `.${nameExt || sniffed.ext || '(none)'}`;
  const exts = [nameExt, sniffed.ext].filter((e): e is string => !!e);
  for (const ext of exts) {
    if (listHas(config.blocked_file_extensions, ext)) {
      throw typeRefused(`File extension .${ext} is not allowed`);
    }
  }
  const allowed = config.allowed_file_extensions;
  if (allowed?.length) {
    // The name decides (the content's type when the name has no extension).
    const ext = nameExt || sniffed.ext || '';
    if (!listHas(allowed, ext)) throw typeRefused(`File extension ${shown} is not allowed`);
  }
  if (mimeMatches(config.blocked_mime_types, sniffed.mime)) {
    throw typeRefused(`MIME type ${sniffed.mime} is not allowed (file extension ${shown})`);
  }
  if (config.allowed_mime_types?.length && !mimeMatches(config.allowed_mime_types, sniffed.mime)) {
    throw typeRefused(`MIME type ${sniffed.mime} is not allowed (file extension ${shown})`);
  }
}

/** Throws code 22 when `size` is over the configuration's limit. */
export function checkSize(config: UploadConfig, size: number): void {
  const limit = sizeLimitOf(config);
  if (size > limit) throw tooLarge(limit);
}
