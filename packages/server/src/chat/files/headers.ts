/**
 * The answer headers of a stored chat file (docs/security.md "Stored files"). Files are private and immutable: a
 * browser may keep them (not shared caches), and they are never interpreted as part of the app. Raster images,
 * audio and video are shown inline (the web shows them in `<img>`, `<audio>`, `<video>`); everything else — SVG,
 * HTML, XML, PDF, text, anything unknown — is a download, and the types a browser would run as a document
 * (HTML, SVG, XML, JavaScript) go out as `application/octet-stream`.
 */

/** Image types shown inline: raster formats a browser decodes as pixels, never as a document. */
const INLINE_IMAGES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif']);

/** Types a browser renders as an active document (scripts, markup): never sent with their own type. */
const ACTIVE_TYPES =
  /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|[a-z]+\/[a-z0-9.+-]*\+xml|text\/javascript|application\/javascript|application\/ecmascript|text\/ecmascript|application\/x-shockwave-flash|text\/xsl|multipart\/x-mixed-replace)$/i;

/** The sandboxing policy of every file answer: nothing runs, a document opened from it has no origin. */
export const FILE_CSP =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/** Whether a stored type is shown inline (raster image, audio, video). */
export function isInlineType(mime: string): boolean {
  const type = baseType(mime);
  return INLINE_IMAGES.has(type) || type.startsWith('audio/') || type.startsWith('video/');
}

/** A MIME type without its parameters, lower-cased. */
export function baseType(mime: string): string {
  return (mime.split(';')[0] ?? '').trim().toLowerCase();
}

/** The Content-Type a file goes out with: its stored type, or `application/octet-stream` for an active one. */
export function servedType(mime: string): string {
  const type = baseType(mime);
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) || ACTIVE_TYPES.test(type)) {
    return 'application/octet-stream';
  }
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}

/** `Content-Disposition` per RFC 6266: an ASCII fallback name and the exact one as `filename*` (RFC 8187). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_').slice(0, 200) || 'file';
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** Headers every file answer carries, errors included. */
export const SAFETY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': FILE_CSP,
  'cross-origin-resource-policy': 'same-origin',
};

/** Files never change under their URL: a private cache may keep them for a day. */
export const FILE_CACHE_CONTROL = 'private, max-age=86400';

/** A byte range of a file of `size` bytes asked for by a `Range` header. */
export type RangeAsk = { start: number; end: number } | 'unsatisfiable' | undefined;

/**
 * The single byte range of a `Range: bytes=...` header (undefined: none, or a form served whole, such as several
 * ranges); `unsatisfiable` when it starts past the end (416).
 */
export function parseRange(header: string | undefined, size: number): RangeAsk {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return undefined;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return undefined;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Raster image types by their first bytes (thumbnails, posters and resized variants carry no stored type). */
export function sniffImageType(head: Buffer): string {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (head.subarray(4, 12).toString('latin1').startsWith('ftypavi')) return 'image/avif';
  return 'application/octet-stream';
}
