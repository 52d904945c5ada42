import sharp from 'sharp';
import type { FileStorage } from '../../platform/storage/index.js';
import type { Logger } from '../../platform/logger.js';
import type { UploadRow } from './store.js';
import { uploadKeys } from '../uploads/store.js';
import { baseType } from './headers.js';

/**
 * The widths the server renders resized images at (docs/decisions.md "Image resize buckets"). Clients ask for twice
 * the CSS size (chat-spec §9), any number; the answer is the smallest bucket at least that wide, so a handful of
 * variants per image exist at most and nobody can make the server render arbitrary sizes.
 */
export const RESIZE_WIDTHS = [64, 128, 256, 384, 512, 768, 1024, 1536, 2048] as const;

/** Longest side of the thumbnail made at upload (WebP, `fit: inside`; platform/media `THUMB_MAX_SIDE`). */
export const THUMB_LONGEST_SIDE = 512;

/** The width of an image's thumbnail: its longer side at most {@link THUMB_LONGEST_SIDE}, never upscaled. */
export function thumbWidth(width: number, height: number): number {
  const scale = Math.min(1, THUMB_LONGEST_SIDE / Math.max(width, height));
  return Math.round(width * scale);
}

/** Image types resized (animated GIFs and everything else are served as stored). */
const RESIZABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif']);

/** What to serve for a resize request: the original, the thumbnail, or a variant `w{width}`. */
export type ResizeChoice = { from: 'original' } | { from: 'thumb' } | { from: 'variant'; width: number };

/**
 * The bucket for a request of `w` x `h` (either may be absent) of an image `width` x `height`: the box is fitted
 * inside (`fit: inside`), its width snapped up to a bucket. Never wider than the original (no upscaling): when the
 * bucket reaches the original's width, the original is served; buckets the thumbnail is wide enough for come from it.
 */
export function chooseSize(
  upload: Pick<UploadRow, 'mime_type' | 'width' | 'height' | 'thumb_key' | 'kind'>,
  w: number | undefined,
  h: number | undefined,
): ResizeChoice {
  const { width, height } = upload;
  if (upload.kind !== 'image' || !RESIZABLE.has(baseType(upload.mime_type))) return { from: 'original' };
  if (!width || !height || (!w && !h)) return { from: 'original' };
  const scale = Math.min(w ? w / width : Infinity, h ? h / height : Infinity);
  const wanted = Math.ceil(width * scale);
  const bucket = RESIZE_WIDTHS.find((b) => b >= wanted) ?? RESIZE_WIDTHS[RESIZE_WIDTHS.length - 1]!;
  if (bucket >= width) return { from: 'original' };
  if (upload.thumb_key && bucket <= thumbWidth(width, height)) return { from: 'thumb' };
  return { from: 'variant', width: bucket };
}

/** Storage key of an upload's variant of `width`. */
export const variantKey = (id: string, width: number): string => `${uploadKeys(id).prefix}/w${width}`;

/** Variants being rendered on this node, so that parallel requests for one render it once. */
const rendering = new Map<string, Promise<void>>();

/**
 * Makes sure the variant of `width` exists in storage (rendered once from the original with sharp: EXIF rotation
 * applied, `width` wide (`fit: inside`, never upscaled), WebP, metadata dropped) and answers its key.
 */
export async function ensureVariant(
  storage: FileStorage,
  log: Logger,
  upload: Pick<UploadRow, 'id' | 'storage_key'>,
  width: number,
): Promise<string> {
  const key = variantKey(upload.id, width);
  if (await storage.stat(key)) return key;
  let job = rendering.get(key);
  if (!job) {
    job = render(storage, upload.storage_key, key, width).finally(() => rendering.delete(key));
    rendering.set(key, job);
  }
  try {
    await job;
  } catch (err) {
    log.warn({ err, upload: upload.id, width }, 'resizing an image failed');
    throw err;
  }
  return key;
}

async function render(storage: FileStorage, source: string, key: string, width: number): Promise<void> {
  const original = await storage.get(source);
  if (!original) throw new Error('the original is missing');
  const resizer = sharp({ limitInputPixels: 100_000_000 })
    .rotate()
    .resize({ width, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 });
  original.pipe(resizer);
  const bytes = await resizer.toBuffer();
  await storage.put(key, bytes, { contentType: 'image/webp' });
}
