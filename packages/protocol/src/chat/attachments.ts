import { z } from 'zod';

/**
 * Attachments, uploads, app upload settings and link previews (chat-spec §3, §5, §7, §9; issue 14).
 *
 * Stored files are served by the chat server at `/chat/files/{fileId}/{name}` (an authorized route: the caller must
 * be able to read the channel of the message the file is attached to, or own the upload while it is unattached).
 * Clients send the chat token as the `Authorization` header (the web fetches images as blobs), or as the
 * `authorization` query parameter for media elements that cannot set headers (`<video src>`), as `/chat/connect`
 * does. Image resize requests add `?w=&h=` (twice the CSS size, chat-spec §9).
 */

/** The attachment types of chat-spec §3. */
export const ATTACHMENT_TYPES = [
  'image',
  'video',
  'audio',
  'file',
  'voiceRecording',
  'giphy',
  'gallery',
  'custom',
] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

/** Where stored chat files are served (the id is the upload's id). */
export const CHAT_FILE_PATH_PREFIX = '/chat/files/';
/** Finds the upload id in a chat file URL (absolute or relative); undefined for any other URL. */
export function chatFileIdOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const match = /\/chat\/files\/([A-Za-z0-9_-]{10,64})(?:\/|$|\?)/.exec(url);
  return match?.[1];
}

export const AttachmentAction = z.looseObject({
  name: z.string().optional(),
  text: z.string().optional(),
  style: z.string().optional(),
  type: z.string().optional(),
  value: z.string().optional(),
});

/** One attachment of a message (chat-spec §3). Custom fields ride at the top level. */
export const Attachment = z.looseObject({
  type: z.string().optional(),
  file_size: z.number().int().min(0).optional(),
  mime_type: z.string().optional(),
  title: z.string().optional(),
  fallback: z.string().optional(),
  text: z.string().optional(),
  pretext: z.string().optional(),
  author_name: z.string().optional(),
  title_link: z.string().optional(),
  image_url: z.string().optional(),
  img_url: z.string().optional(),
  asset_url: z.string().optional(),
  thumb_url: z.string().optional(),
  og_scrape_url: z.string().optional(),
  original_height: z.number().int().min(0).optional(),
  original_width: z.number().int().min(0).optional(),
  /** Seconds (video, audio, voice recordings). */
  duration: z.number().min(0).optional(),
  /** Voice recordings: amplitudes 0..1, at most 100 samples. */
  waveform_data: z.array(z.number().min(0).max(1)).max(100).optional(),
  actions: z.array(AttachmentAction).optional(),
  giphy: z
    .looseObject({
      fixed_height_downsampled: z
        .looseObject({
          url: z.string(),
          height: z.union([z.string(), z.number()]),
          width: z.union([z.string(), z.number()]),
        })
        .optional(),
    })
    .optional(),
});
export type Attachment = z.infer<typeof Attachment>;

/** Answer of every upload endpoint (chat-spec §7 Uploads). `thumb_url` for images and video, `duration` for media. */
export const UploadResponse = z.object({
  file: z.string(),
  thumb_url: z.string().optional(),
  duration: z.number().optional(),
  /** Extra facts the server learnt from the content (not in the spec's answer; the SDK fills the attachment). */
  mime_type: z.string().optional(),
  file_size: z.number().int().optional(),
  original_width: z.number().int().optional(),
  original_height: z.number().int().optional(),
});
export type UploadResponse = z.infer<typeof UploadResponse>;

/** `DELETE /chat/channels/{type}/{id}/file|image` and `/chat/uploads/file|image` take the file's `url`. */
export const DeleteUploadQuery = z.object({ url: z.string().min(1) });

/** Default upload size limit: 100 MiB (chat-spec §5, §9). */
export const DEFAULT_UPLOAD_SIZE_LIMIT = 100 * 1024 * 1024;

/** One of the app's two upload configurations (chat-spec §3 app settings). Extensions are written with the dot. */
export const UploadConfig = z.object({
  allowed_file_extensions: z.array(z.string().max(32)).max(500).optional(),
  blocked_file_extensions: z.array(z.string().max(32)).max(500).optional(),
  allowed_mime_types: z.array(z.string().max(255)).max(500).optional(),
  blocked_mime_types: z.array(z.string().max(255)).max(500).optional(),
  /** Bytes; 0 or absent means the default of 100 MiB. */
  size_limit: z.number().int().min(0).optional(),
});
export type UploadConfig = z.infer<typeof UploadConfig>;

/** The app settings clients read (`GET /chat/app`). */
export const AppSettings = z.looseObject({
  image_upload_config: UploadConfig,
  file_upload_config: UploadConfig,
});
export type AppSettings = z.infer<typeof AppSettings>;
export const AppSettingsResponse = z.object({ app: AppSettings });

/** `PATCH /chat/app` (server side only): the given configurations replace the stored ones. */
export const UpdateAppSettingsRequest = z.object({
  image_upload_config: UploadConfig.optional(),
  file_upload_config: UploadConfig.optional(),
});
export type UpdateAppSettingsRequest = z.infer<typeof UpdateAppSettingsRequest>;

/** `GET /chat/og?url=`: the link preview of a page, as an attachment (chat-spec §7, enrichURL). */
export const OgQuery = z.object({ url: z.string().min(1).max(2048) });
export const OgResponse = Attachment.extend({ og_scrape_url: z.string() });
export type OgResponse = z.infer<typeof OgResponse>;

/** Why an upload was refused before it started (chat-spec §3 Upload record errorReason). */
export const UPLOAD_BLOCK_REASONS = [
  'allowed_file_extensions',
  'blocked_file_extensions',
  'allowed_mime_types',
  'blocked_mime_types',
  'size_limit',
] as const;
export type UploadBlockReason = (typeof UPLOAD_BLOCK_REASONS)[number];

/** A resize bound of `GET /chat/files/{id}/{name}` (pixels; from a query string). */
const ResizeBound = z
  .string()
  .regex(/^\d{1,5}$/, 'a whole number of pixels')
  .transform(Number)
  .optional();

/**
 * The query of `GET /chat/files/{id}/{name}` and `/thumb`: `w` and `h` ask for an image resized to fit inside
 * them (twice the CSS size, chat-spec §9; the server snaps to its own widths and never upscales). The chat token
 * may ride as `authorization` (media elements cannot set headers), with `api_key`.
 */
export const FileQuery = z.looseObject({ w: ResizeBound, h: ResizeBound });
export type FileQuery = z.infer<typeof FileQuery>;

/**
 * The URL a link preview may be made for (chat-spec §5: a hostname of valid domain form): http or https, no
 * credentials, a host name of letter/digit/hyphen labels with an alphabetic (or punycode) top-level label — not an
 * address, not `localhost`. Answers the normalised URL, or undefined.
 */
export function linkPreviewUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password)
    return undefined;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host.length > 253) return undefined;
  const labels = host.split('.');
  if (labels.length < 2) return undefined;
  const label = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
  if (!labels.every((l) => label.test(l))) return undefined;
  const top = labels[labels.length - 1] ?? '';
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(top)) return undefined;
  return url.toString();
}
