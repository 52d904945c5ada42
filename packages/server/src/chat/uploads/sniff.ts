import { open } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';

/**
 * The true type of an uploaded file, from its content (never the declared type), and whether its name agrees
 * (docs/security.md "Uploads"):
 *
 * 1. `file-type` reads the magic bytes. A name whose extension belongs to another family than the content (a `.png`
 *    that is a PDF, an `.exe` renamed `.pdf`) is a mismatch and is refused; within a family the content wins (a
 *    `.jpg` that is a PNG is stored as `image/png`).
 * 2. Content `file-type` does not know is text or unknown binary. Text is typed by what it holds first (HTML, SVG,
 *    XML markers anywhere in its head), then by its extension (`.csv`, `.js`, ...), else `text/plain`; unknown binary
 *    is `application/octet-stream`. Either under the name of a binary format (an HTML page named `.jpg`) is a
 *    mismatch and is refused.
 *
 * SVG, HTML, XML and scripts are kept as they are, recorded with their true type: the download route serves
 * every type outside plain media as an attachment under a sandboxing CSP, never inline from the app's origin.
 */

export interface SniffedType {
  /** The recorded MIME type. */
  mime: string;
  /** The extension of that type (no dot), when it has one. */
  ext: string | undefined;
  /** `binary` (known by its magic bytes), `text` (typed by its markers or name) or `unknown` (opaque binary). */
  source: 'binary' | 'text' | 'unknown';
}

/** How much of the head is read to tell text from binary and to look for markup. */
const HEAD_BYTES = 64 * 1024;

/**
 * Extension families: within one, the content decides the type (a `.jpg` holding a PNG); across them a name and a
 * content disagree. Extensions not listed are their own family.
 */
const FAMILIES: Record<string, readonly string[]> = {
  image: 'jpg jpeg jpe jfif png apng gif webp avif heic heif bmp tif tiff ico cur jxl jp2 icns'.split(' '),
  av: (
    'mp4 m4a m4v m4b m4p mov qt webm weba mkv mka ogg oga ogv ogx opus spx mp3 mp2 mp1 wav aac flac 3gp 3g2 ' +
    'amr avi mpg mpeg ac3 aif aiff caf wma wmv asf f4v f4a flv mts m2ts'
  ).split(' '),
  pdf: ['pdf', 'ai'],
  // Office Open XML, OpenDocument and other ZIP containers sniff as their own type or as zip.
  zip: (
    'zip docx docm dotx dotm xlsx xlsm xltx xltm pptx pptm potx potm ppsx ppsm vsdx odt ods odp odg ott ots ' +
    'otp otg epub jar apk xpi 3mf kmz pages numbers key'
  ).split(' '),
  // Compound File Binary: legacy Office documents and Outlook messages.
  cfb: ['cfb', 'doc', 'dot', 'xls', 'xlt', 'ppt', 'pot', 'msg', 'msi', 'pub', 'vsd'],
  exe: ['exe', 'dll', 'com', 'scr', 'elf', 'macho', 'so', 'dylib'],
  gz: ['gz', 'tgz', 'tar.gz'],
};
const FAMILY_OF = new Map<string, string>(
  Object.entries(FAMILIES).flatMap(([family, exts]) => exts.map((ext) => [ext, family] as const)),
);
export const familyOf = (ext: string): string => FAMILY_OF.get(ext) ?? ext;

/**
 * Names of formats that are never plain text: text or unknown binary content under one of these names is a
 * mismatch. (Extensions `file-type` knows but people use for text, such as `.ts` or `.xml`, are not here.)
 */
const BINARY_NAMES: ReadonlySet<string> = new Set([
  ...(['image', 'av', 'pdf', 'zip', 'cfb', 'exe', 'gz'] as const).flatMap((f) => FAMILIES[f] ?? []),
  'rar',
  '7z',
  'xz',
  'bz2',
  'zst',
  'tar',
  'dmg',
  'iso',
  'psd',
  'swf',
  'wasm',
  'sqlite',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'deb',
  'rpm',
  'class',
  'dwg',
  'parquet',
]);

/** Text types named by their extension (content `file-type` does not recognise). */
const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  js: 'text/javascript',
  mjs: 'text/javascript',
  css: 'text/css',
  ics: 'text/calendar',
  vcf: 'text/vcard',
  vtt: 'text/vtt',
  rtf: 'application/rtf',
  yaml: 'application/yaml',
  yml: 'application/yaml',
};

/** Markup found in a text file's head decides its type whatever its name (what a browser would make of it). */
const TEXT_MARKERS: ReadonlyArray<[RegExp, string, string]> = [
  [/<svg[\s>]/i, 'image/svg+xml', 'svg'],
  [/<!doctype\s+html|<html[\s>]|<script[\s>]|<body[\s>]|<iframe[\s>]/i, 'text/html', 'html'],
  [/^\s*<\?xml[\s?]/i, 'application/xml', 'xml'],
];

/** The lower-case extension of a file name, without the dot ('' when it has none). */
export function extensionOf(name: string): string {
  const lower = name.toLowerCase();
  if (lower.endsWith('.tar.gz')) return 'tar.gz';
  const dot = lower.lastIndexOf('.');
  return dot > 0 ? lower.slice(dot + 1) : '';
}

/** The first bytes of a file. */
export async function readHead(file: string, bytes = HEAD_BYTES): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Text: no NUL byte and valid UTF-8 (a multi-byte character cut at the end of the head is allowed). */
function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 3)));
    return true;
  } catch {
    return false;
  }
}

/** The content's true type. */
export async function sniffType(file: string, name: string): Promise<SniffedType> {
  const found = await fileTypeFromFile(file);
  // XML is typed further by what it holds (an SVG image, an XHTML page).
  if (found && found.ext !== 'xml') return { mime: found.mime, ext: found.ext, source: 'binary' };
  const head = await readHead(file);
  if (!looksLikeText(head)) return { mime: 'application/octet-stream', ext: undefined, source: 'unknown' };
  const text = head.toString('utf8');
  for (const [marker, mime, ext] of TEXT_MARKERS) {
    if (marker.test(text)) return { mime, ext, source: 'text' };
  }
  const ext = extensionOf(name);
  const mime = TEXT_TYPES[ext];
  return mime ? { mime, ext, source: 'text' } : { mime: 'text/plain', ext: 'txt', source: 'text' };
}

/**
 * Why the name and the content disagree (undefined when they agree): the extension names a format of another
 * family than the content's.
 */
export function mismatchOf(nameExt: string, sniffed: SniffedType): string | undefined {
  if (!nameExt) return undefined;
  if (sniffed.source === 'binary') {
    const contentFamily = familyOf(sniffed.ext ?? '');
    // A name of no known format (`.dat`, `.bin`, a text name) over known binary content: the content decides,
    // unless the name claims a binary format of another family or a text format a browser would render.
    const claimsFormat = BINARY_NAMES.has(nameExt) || nameExt in TEXT_TYPES;
    if (claimsFormat && familyOf(nameExt) !== contentFamily && !sameTextFamily(nameExt, sniffed)) {
      return `File extension .${nameExt} does not match the file's content (${sniffed.mime})`;
    }
    return undefined;
  }
  if (BINARY_NAMES.has(nameExt)) {
    return `File extension .${nameExt} does not match the file's content (${sniffed.source === 'text' ? sniffed.mime : 'not a .' + nameExt + ' file'})`;
  }
  return undefined;
}

/** Text types file-type also recognises (XML, calendars, cards, subtitles) under a text name are not a mismatch. */
function sameTextFamily(nameExt: string, sniffed: SniffedType): boolean {
  const textual = /^(text\/|application\/(xml|json|rtf))/.test(sniffed.mime) || sniffed.mime.endsWith('+xml');
  return textual && nameExt in TEXT_TYPES;
}

/** Markup in an image's bytes: the sign of a polyglot (an image that is also a page or a script). */
const POLYGLOT_HEAD = /<(script|html|svg|body|iframe|object|embed|\?php)[\s>/]/i;
/** Long markers are looked for in the whole file (short ones would match random compressed bytes). */
const POLYGLOT_ANYWHERE = /<(script|iframe|\?php)[\s>/]/i;

/** Whether an image file carries markup: in its head (any tag) or anywhere (script-like tags). */
export async function hasMarkup(file: string): Promise<boolean> {
  const head = await readHead(file, 4096);
  if (POLYGLOT_HEAD.test(head.toString('latin1'))) return true;
  const handle = await open(file, 'r');
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    let position = 0;
    let carry = '';
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) return false;
      const text = carry + chunk.subarray(0, bytesRead).toString('latin1');
      if (POLYGLOT_ANYWHERE.test(text)) return true;
      carry = text.slice(-16);
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}
