import { ATTACHMENT_CONSTANTS, type Attachment } from '@caseroom/protocol';

/**
 * Pure rules of the attachment list (chat-spec §2, §9): what each attachment renders as, the gallery, resize
 * requests, durations, playback rates, sizes and the voice waveform. Components stay thin around these.
 */

/** How one attachment renders. `og` is a link card (rendered elsewhere), `none` renders nothing. */
export type AttachmentKind =
  'image' | 'giphy' | 'video' | 'audio' | 'voiceRecording' | 'file' | 'og' | 'actions' | 'none';

/** The kind of `attachment`: link previews first (an og image is a card, not a photo), then the type. */
export function attachmentKind(attachment: Attachment): AttachmentKind {
  if (attachment.og_scrape_url) return 'og';
  switch (attachment.type) {
    case 'image':
      return imageUrlOf(attachment) ? 'image' : 'none';
    case 'giphy':
      return attachment.giphy?.fixed_height_downsampled?.url || imageUrlOf(attachment) ? 'giphy' : 'none';
    case 'video':
      return attachment.asset_url ? 'video' : 'none';
    case 'audio':
      return attachment.asset_url ? 'audio' : 'none';
    case 'voiceRecording':
      return attachment.asset_url ? 'voiceRecording' : 'none';
    case 'file':
      return attachment.asset_url ? 'file' : 'none';
    default:
      if (attachment.actions?.length) return 'actions';
      if (attachment.title_link && (attachment.title || attachment.text)) return 'og';
      if (attachment.asset_url) return 'file';
      return 'none';
  }
}

/** The image an image attachment shows. */
export function imageUrlOf(attachment: Attachment): string | undefined {
  return attachment.image_url || attachment.thumb_url || attachment.img_url || undefined;
}

/** One entry of the rendered list: a single attachment, or the gallery of a message's images. */
export type AttachmentItem =
  | { kind: Exclude<AttachmentKind, 'none' | 'image'>; attachment: Attachment; key: string }
  | { kind: 'image'; attachment: Attachment; key: string; imageIndex: number }
  | { kind: 'gallery'; images: Attachment[]; key: string };

/**
 * The attachment list of a message (chat-spec §2): images form one gallery when there are at least 2 of them
 * (§9 threshold), placed where the first image was; a `gallery` attachment carries its own `images`; `actions`
 * render after everything else. Also answers the images in carousel order.
 */
export function attachmentItems(attachments: readonly Attachment[]): {
  items: AttachmentItem[];
  images: Attachment[];
} {
  const images: Attachment[] = [];
  for (const attachment of attachments) {
    if (attachment.type === 'gallery') images.push(...galleryImagesOf(attachment));
    else if (attachmentKind(attachment) === 'image') images.push(attachment);
  }
  const galleried = images.length >= ATTACHMENT_CONSTANTS.galleryThreshold;
  const items: AttachmentItem[] = [];
  const actions: AttachmentItem[] = [];
  let galleryPlaced = false;
  attachments.forEach((attachment, index) => {
    const key = `a${index}`;
    const kind = attachment.type === 'gallery' ? 'image' : attachmentKind(attachment);
    if (kind === 'none') return;
    if (kind === 'image') {
      if (galleried) {
        if (!galleryPlaced) items.push({ kind: 'gallery', images, key });
        galleryPlaced = true;
      } else if (attachment.type !== 'gallery') {
        items.push({ kind: 'image', attachment, key, imageIndex: images.indexOf(attachment) });
      } else if (images[0]) {
        items.push({ kind: 'image', attachment: images[0], key, imageIndex: 0 });
      }
      return;
    }
    (kind === 'actions' ? actions : items).push({ kind, attachment, key });
  });
  return { items: [...items, ...actions], images };
}

function galleryImagesOf(attachment: Attachment): Attachment[] {
  const images = (attachment as { images?: unknown }).images;
  if (!Array.isArray(images)) return [];
  return images.filter(
    (image): image is Attachment => typeof image === 'object' && image !== null && Boolean(imageUrlOf(image)),
  );
}

/**
 * The tiles of a gallery (chat-spec §9: 4 tiles): up to 4 images all shown; more than 4 show 3 and a fourth
 * tile "+N more" over the fourth image, N counting every image behind that tile.
 */
export function galleryTiles(count: number): { shown: number; more: number } {
  const tiles = ATTACHMENT_CONSTANTS.galleryTiles;
  if (count <= tiles) return { shown: count, more: 0 };
  return { shown: tiles - 1, more: count - (tiles - 1) };
}

/**
 * The size to ask the server for (chat-spec §9): twice the CSS size, never more than the original (an unknown
 * original counts as 1,000,000 px).
 */
export function resizeRequest(
  cssWidth: number,
  cssHeight: number,
  attachment: Pick<Attachment, 'original_width' | 'original_height'>,
): { w: number; h: number } {
  const factor = ATTACHMENT_CONSTANTS.resizeFactor;
  const originalW = attachment.original_width || ATTACHMENT_CONSTANTS.defaultOriginalSize;
  const originalH = attachment.original_height || ATTACHMENT_CONSTANTS.defaultOriginalSize;
  return {
    w: Math.min(Math.round(cssWidth * factor), originalW),
    h: Math.min(Math.round(cssHeight * factor), originalH),
  };
}

/** The CSS box of a single image within `maxWidth` x `maxHeight`, keeping its original aspect ratio. */
export function imageBox(
  attachment: Pick<Attachment, 'original_width' | 'original_height'>,
  maxWidth: number,
  maxHeight: number,
): { width: number; height: number; known: boolean } {
  const w = attachment.original_width;
  const h = attachment.original_height;
  if (!w || !h) return { width: maxWidth, height: Math.round(maxWidth * 0.75), known: false };
  const scale = Math.min(1, maxWidth / w, maxHeight / h);
  return {
    width: Math.max(1, Math.round(w * scale)),
    height: Math.max(1, Math.round(h * scale)),
    known: true,
  };
}

/** chat-spec §9: durations as mm:ss, or hh:mm:ss from one hour on. */
export function formatDuration(seconds: number | undefined): string {
  const total = Number.isFinite(seconds) && seconds !== undefined && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${pad(h)}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

/** chat-spec §9: the playback rate cycles 1, 1.5, 2, then 1 again. */
export function nextPlaybackRate(rate: number): number {
  const rates = ATTACHMENT_CONSTANTS.playbackRates;
  const at = rates.findIndex((r) => r === rate);
  return rates[(at + 1) % rates.length] ?? rates[0];
}

/** A playback rate with one decimal: "1.0x", "1.5x", "2.0x". */
export function formatPlaybackRate(rate: number): string {
  return `${rate.toFixed(1)}x`;
}

/** A file size for people: "980 B", "12.4 KB", "3.1 MB" (binary units, one decimal under 100). */
export function formatFileSize(bytes: number | undefined): string {
  if (bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 100 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/**
 * The voice waveform as `bars` heights in 0..1 (chat-spec §9: 40 bars from up to 100 samples): each bar is the
 * loudest sample of its stretch; fewer samples than bars are stretched; no data gives a flat low line.
 */
export function waveformBars(
  samples: readonly number[] | undefined,
  bars: number = ATTACHMENT_CONSTANTS.voiceWaveBars,
): number[] {
  if (!samples?.length) return Array.from({ length: bars }, () => 0.1);
  return Array.from({ length: bars }, (_, i) => {
    const from = Math.floor((i * samples.length) / bars);
    const to = Math.max(from + 1, Math.floor(((i + 1) * samples.length) / bars));
    let peak = 0;
    for (let j = from; j < to && j < samples.length; j++) peak = Math.max(peak, samples[j] ?? 0);
    return Math.min(1, Math.max(0.05, peak));
  });
}

/** Where a key press on the waveform seeks to (seconds), or undefined for keys it does not handle. */
export function seekByKey(key: string, current: number, duration: number): number | undefined {
  const step = Math.max(1, duration / 20);
  const clamp = (v: number) => Math.min(duration, Math.max(0, v));
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(current + step);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(current - step);
    case 'Home':
      return 0;
    case 'End':
      return duration;
    default:
      return undefined;
  }
}

/** The file's icon family, from its MIME type and then its extension. */
export type FileFamily =
  'pdf' | 'image' | 'video' | 'audio' | 'archive' | 'document' | 'sheet' | 'slides' | 'text' | 'other';

export function fileFamily(mimeType: string | undefined, name: string | undefined): FileFamily {
  const mime = (mimeType ?? '').toLowerCase();
  const ext = (/\.([a-z0-9]+)$/i.exec(name ?? '')?.[1] ?? '').toLowerCase();
  if (mime === 'application/pdf' || ext === 'pdf') return 'pdf';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (/zip|compressed|tar|rar|7z|gzip/.test(mime) || ['zip', 'rar', '7z', 'gz', 'tar'].includes(ext))
    return 'archive';
  if (/spreadsheet|excel|csv/.test(mime) || ['xls', 'xlsx', 'ods', 'csv'].includes(ext)) return 'sheet';
  if (/presentation|powerpoint/.test(mime) || ['ppt', 'pptx', 'odp', 'key'].includes(ext)) return 'slides';
  if (/word|opendocument\.text|rtf/.test(mime) || ['doc', 'docx', 'odt', 'rtf', 'pages'].includes(ext))
    return 'document';
  if (mime.startsWith('text/') || ['txt', 'md'].includes(ext)) return 'text';
  if (['png', 'jpg', 'jpeg', 'gif', 'webp', 'heic'].includes(ext)) return 'image';
  if (['mp4', 'mov', 'webm', 'mkv'].includes(ext)) return 'video';
  if (['mp3', 'm4a', 'wav', 'ogg', 'aac', 'opus'].includes(ext)) return 'audio';
  return 'other';
}

/** The name a file attachment shows and saves under. */
export function fileNameOf(attachment: Attachment): string {
  return attachment.title || attachment.fallback || lastPathPart(attachment.asset_url) || 'file';
}

function lastPathPart(url: string | undefined): string | undefined {
  if (!url || url.startsWith('data:')) return undefined;
  const path = url.split('?')[0] ?? '';
  const part = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(part) || undefined;
  } catch {
    return part || undefined;
  }
}
