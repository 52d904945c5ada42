import {
  ATTACHMENT_CONSTANTS,
  ChatErrorCode,
  type AppSettings,
  type UploadBlockReason,
  type UploadConfig,
} from '@caseroom/protocol';
import type { ChatApiError } from '../transport/errors.js';

/** The user-facing texts about attachments (chat-spec §5, §8), exactly as the spec writes them. */
export const ATTACHMENT_TEXTS = {
  waitForUploads: 'Wait until all attachments have uploaded',
  tooMany: 'You currently have {{count}} attachments, the maximum is {{max}}',
  // The spec's spelling ("uplod") is the contract.
  limitReached: "You can't uplod more than {{max}} attachments",
  typeNotSupported: 'Error uploading "{{ name }}", type {{ ext }} not supported',
  sizeExceeded: 'Error uploading "{{ name }}", maximum file size {{ limit }} exceeded',
  uploadError: 'Error uploading file',
  deleteError: 'Error deleting attachment',
} as const;

/** Thrown messages of chat-spec §8. */
export const ATTACHMENT_ERRORS = {
  uploadFailed: 'Error uploading attachment',
  blocked: 'The attachment upload was blocked',
  fileRequired: 'File is required for upload attachment',
  missingLocalId: 'Local upload attachment missing local id',
} as const;

/** Fills `{{ name }}` / `{{name}}` placeholders. */
export function fillText(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

/** Why a finished upload failed (chat-spec §3 Upload record errorReason). */
export type UploadErrorReason = 'file-size' | 'file-extension' | 'unknown';

/** chat-spec §5: code 22, or 4 mentioning bytes, is the size; 4 about the file extension is the type. */
export function uploadErrorReason(error: Pick<ChatApiError, 'code' | 'message'>): UploadErrorReason {
  if (error.code === ChatErrorCode.PayloadTooBig) return 'file-size';
  if (error.code === ChatErrorCode.InputError && /bytes/i.test(error.message)) return 'file-size';
  if (error.code === ChatErrorCode.InputError && /file extension/i.test(error.message))
    return 'file-extension';
  return 'unknown';
}

/**
 * The limit a server's size refusal names ("the maximum file size is 2000 bytes"), in bytes; undefined when it names
 * none. The server's limit is the one that refused: the client's settings may be older than it.
 */
export function refusedSizeLimit(error: Pick<ChatApiError, 'message'>): number | undefined {
  const match = /(\d+)\s*bytes/i.exec(error.message);
  const limit = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(limit) && limit > 0 ? limit : undefined;
}

/**
 * The extension a server's type refusal names ("File extension .zip is not allowed": the content's type, which may
 * not be the name's); undefined when it names none.
 */
export function refusedExtension(error: Pick<ChatApiError, 'message'>): string | undefined {
  return /file extension (\.[a-z0-9]+) is not allowed/i.exec(error.message)?.[1]?.toLowerCase();
}

/** The result of the client-side check (chat-spec §3 uploadPermissionCheck). */
export interface UploadPermissionCheck {
  uploadBlocked: boolean;
  reason?: UploadBlockReason;
}

/** `.pdf` for `Report.PDF`; '' without an extension. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot).toLowerCase() : '';
}

function sameExtension(listed: string, ext: string): boolean {
  const normal = listed.toLowerCase();
  return (normal.startsWith('.') ? normal : `.${normal}`) === ext;
}

/** `image/*` matches every image type; parameters (`; codecs=`) are ignored. */
function sameMime(listed: string, type: string): boolean {
  const bare = type.split(';')[0]?.trim().toLowerCase() ?? '';
  const pattern = listed.trim().toLowerCase();
  return pattern.endsWith('/*') ? bare.startsWith(pattern.slice(0, -1)) : pattern === bare;
}

/** The size limit a config sets, in bytes (the default 100 MiB when unset or 0). */
export function sizeLimitOf(config: UploadConfig | undefined): number {
  return config?.size_limit || ATTACHMENT_CONSTANTS.defaultSizeLimitBytes;
}

/**
 * chat-spec §5 Uploads: a file against its config, in the order allowed and blocked extensions, allowed and blocked
 * MIME types, size limit. Without a config (app settings could not be fetched) everything passes.
 */
export function checkUpload(
  file: { name: string; type: string; size: number },
  config: UploadConfig | undefined,
): UploadPermissionCheck {
  if (!config) return { uploadBlocked: false };
  const ext = extensionOf(file.name);
  const blocked = (reason: UploadBlockReason): UploadPermissionCheck => ({ uploadBlocked: true, reason });
  if (
    config.allowed_file_extensions?.length &&
    !config.allowed_file_extensions.some((e) => sameExtension(e, ext))
  )
    return blocked('allowed_file_extensions');
  if (config.blocked_file_extensions?.some((e) => sameExtension(e, ext)))
    return blocked('blocked_file_extensions');
  if (config.allowed_mime_types?.length && !config.allowed_mime_types.some((m) => sameMime(m, file.type)))
    return blocked('allowed_mime_types');
  if (config.blocked_mime_types?.some((m) => sameMime(m, file.type))) return blocked('blocked_mime_types');
  if (file.size > sizeLimitOf(config)) return blocked('size_limit');
  return { uploadBlocked: false };
}

/** Images and other files have separate configs (chat-spec §5). */
export function configFor(settings: AppSettings | undefined, image: boolean): UploadConfig | undefined {
  return image ? settings?.image_upload_config : settings?.file_upload_config;
}

/** The limit as shown to people: megabytes of the configured limit, "100MB" when none is configured. */
export function sizeLimitText(config: UploadConfig | undefined): string {
  if (!config?.size_limit) return ATTACHMENT_CONSTANTS.fallbackSizeLimitText;
  // Three significant digits: 25MB, 105MB (100 MiB), 0.5MB.
  return `${Number((config.size_limit / 1_000_000).toPrecision(3))}MB`;
}

/** The notice for a refused upload: by type, by size, or the generic one naming the file. */
export function uploadNoticeText(
  name: string,
  type: string,
  reason: UploadErrorReason,
  config: UploadConfig | undefined,
  /** The extension the server refused, when it named one. */
  refusedExt?: string,
): string {
  if (reason === 'file-extension')
    return fillText(ATTACHMENT_TEXTS.typeNotSupported, {
      name,
      ext: refusedExt || extensionOf(name) || type || 'unknown',
    });
  if (reason === 'file-size')
    return fillText(ATTACHMENT_TEXTS.sizeExceeded, { name, limit: sizeLimitText(config) });
  return `${ATTACHMENT_TEXTS.uploadError} "${name}"`;
}

/** A client-side block reason as the error reason of the same notice. */
export function blockErrorReason(reason: UploadBlockReason | undefined): UploadErrorReason {
  return reason === 'size_limit' ? 'file-size' : reason ? 'file-extension' : 'unknown';
}

/** chat-spec §3 attachment type from the MIME type. */
export function attachmentTypeOf(mimeType: string): 'image' | 'video' | 'audio' | 'file' {
  const main = mimeType.split('/')[0]?.toLowerCase();
  return main === 'image' || main === 'video' || main === 'audio' ? main : 'file';
}
