import { spawn } from 'node:child_process';
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';

/**
 * What the server learns from uploaded media, and the copies it stores (issue 14): images are decoded and re-encoded
 * with sharp (orientation applied, every metadata block but the colour profile dropped, so EXIF/GPS, XMP, comments
 * and anything hidden after the image data are gone) with a WebP thumbnail; video gets a poster frame and its
 * duration, audio its duration, from Debian's `ffprobe`/`ffmpeg` when installed (without them those stay empty).
 * External tools run from argument arrays (never a shell) under a timeout, and are killed when it passes.
 */

/** Raster images a browser shows and sharp decodes: what `/image` accepts and what is re-encoded on `/file`. */
export const DECODABLE_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
]);

/**
 * The largest image accepted, in pixels (all frames of an animation together): 100 megapixels, beyond any phone
 * photo or panorama people send in a chat, and a bound on the memory one decode may take (a decompression bomb or
 * a 100000×100000 PNG is refused from its header, before anything is decoded).
 */
export const MAX_IMAGE_PIXELS = 100_000_000;
/** Longest side of a thumbnail or poster (pixels). */
export const THUMB_MAX_SIDE = 512;

// Decoded images are not kept in libvips' operation cache (memory would grow with the uploads seen).
sharp.cache(false);

/**
 * At most this many media jobs (an image decode and re-encode, an ffprobe/ffmpeg run) at once on a node; the others
 * wait their turn. A decode of a large photo takes hundreds of MB for a moment; ten at once would take gigabytes.
 */
const MEDIA_CONCURRENCY = 2;
let running = 0;
const waiting: Array<() => void> = [];

/** Runs `job` when a media slot is free (a finishing job hands its slot to the next in line). */
async function inSlot<T>(job: () => Promise<T>): Promise<T> {
  if (running >= MEDIA_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await job();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** An image the server could not (or would not) decode. `tooLarge`: over {@link MAX_IMAGE_PIXELS}. */
export class ImageRefused extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
    this.name = 'ImageRefused';
  }
}

export interface ProcessedImage {
  width: number;
  height: number;
  /** The thumbnail: WebP, at most {@link THUMB_MAX_SIDE} on its longer side (the first frame of an animation). */
  thumb: Buffer;
}

/** Output settings per type: high quality, the same format as the input. */
function encoder(image: Sharp, mime: string): Sharp {
  switch (mime) {
    case 'image/jpeg':
      return image.jpeg({ quality: 92 });
    case 'image/png':
      return image.png({ compressionLevel: 6 });
    case 'image/gif':
      return image.gif({ reuse: true });
    case 'image/webp':
      return image.webp({ quality: 92 });
    case 'image/avif':
      return image.avif({ quality: 70, effort: 2 });
    default:
      throw new ImageRefused(`${mime} cannot be re-encoded`);
  }
}

const inputOptions = (animated: boolean): SharpOptions => ({
  limitInputPixels: MAX_IMAGE_PIXELS,
  failOn: 'error',
  sequentialRead: true,
  animated,
});

/**
 * Decodes the image at `source` (of sniffed type `mime`, one of {@link DECODABLE_IMAGE_TYPES}) and writes a clean
 * copy to `target`: EXIF orientation applied, metadata stripped (the ICC profile is kept: colours stay right),
 * animations kept animated. Throws {@link ImageRefused} when the image is too large or sharp cannot read it.
 */
export function processImage(source: string, target: string, mime: string): Promise<ProcessedImage> {
  return inSlot(() => cleanImage(source, target, mime));
}

async function cleanImage(source: string, target: string, mime: string): Promise<ProcessedImage> {
  let meta: Metadata;
  try {
    meta = await sharp(source, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRefused('the content is not a readable image');
  }
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  const pixels = width * (meta.height ?? 0);
  if (!width || !height) throw new ImageRefused('the content is not a readable image');
  if (pixels > MAX_IMAGE_PIXELS) {
    throw new ImageRefused(
      `the image is too large: ${width}×${meta.height ?? 0} pixels, the maximum is ${MAX_IMAGE_PIXELS} pixels`,
      true,
    );
  }
  const animated = (meta.pages ?? 1) > 1 && (mime === 'image/gif' || mime === 'image/webp');
  try {
    // The colour profile stays (a Display P3 photo keeps its colours), unless it is a print (CMYK) profile: sharp
    // writes RGB, converted to sRGB, and an RGB image under a CMYK profile would show wrong colours.
    const image = sharp(source, inputOptions(animated)).rotate();
    const clean = meta.hasProfile && meta.space !== 'cmyk' ? image.keepIccProfile() : image;
    const info = await encoder(clean, mime).toFile(target);
    const thumb = await sharp(target, inputOptions(false))
      .resize(THUMB_MAX_SIDE, THUMB_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    return { width: info.width, height: animated ? (info.pageHeight ?? info.height) : info.height, thumb };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(message)) throw new ImageRefused('the image is too large', true);
    throw new ImageRefused('the content is not a readable image');
  }
}

/** Where the media tools are; a path that does not exist turns media facts off (nothing fails). */
export interface MediaTools {
  ffprobePath: string;
  ffmpegPath: string;
  /** Per run (default 20 s); the process is killed when it passes. */
  timeoutMs?: number;
}

const DEFAULT_TOOL_TIMEOUT_MS = 20_000;
/** The most a tool may write on stdout (a poster frame as PNG, ffprobe's JSON). */
const MAX_TOOL_OUTPUT = 32 * 1024 * 1024;

interface ToolResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs `bin` with `args` (no shell), collecting its output; resolves undefined when the tool is missing, fails to
 * start, times out (it is killed) or writes too much.
 */
export function runTool(bin: string, args: string[], timeoutMs: number): Promise<ToolResult | undefined> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    } catch {
      resolve(undefined);
      return;
    }
    const out: Buffer[] = [];
    let outSize = 0;
    let stderr = '';
    let settled = false;
    const finish = (value: ToolResult | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(undefined);
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outSize += chunk.length;
      if (outSize > MAX_TOOL_OUTPUT) {
        child.kill('SIGKILL');
        finish(undefined);
      } else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
    });
    child.on('error', () => finish(undefined));
    child.on('close', (code) => finish({ code, stdout: Buffer.concat(out), stderr }));
  });
}

export interface AvFacts {
  /** Whether ffprobe found a video stream (a poster-less cover image does not count); undefined: not probed. */
  hasVideo?: boolean;
  /** Seconds, when known. */
  duration?: number;
  /** The video's displayed size (rotation applied), when it has a video stream. */
  width?: number;
  height?: number;
  /** The poster frame (WebP, at most {@link THUMB_MAX_SIDE}), for video. */
  poster?: Buffer;
}

interface ProbeStream {
  codec_type?: string;
  width?: number;
  height?: number;
  tags?: Record<string, string>;
  side_data_list?: Array<{ rotation?: number }>;
  disposition?: { attached_pic?: number };
}

/** `HH:MM:SS.xx` -> seconds. */
function clockSeconds(text: string): number | undefined {
  const m = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/**
 * The duration when the container does not state one (a browser's MediaRecorder writes WebM without it): ffmpeg
 * copies the streams to nowhere, which reads every packet without decoding, and its last `time=` is the length.
 */
async function measuredDuration(tools: MediaTools, file: string, timeoutMs: number) {
  const run = await runTool(
    tools.ffmpegPath,
    ['-nostdin', '-hide_banner', '-i', file, '-map', '0', '-c', 'copy', '-f', 'null', '-'],
    timeoutMs,
  );
  if (!run) return undefined;
  const times = [...run.stderr.matchAll(/time=(\d+:\d{2}:\d{2}(?:\.\d+)?)/g)];
  const last = times.at(-1)?.[1];
  return last ? clockSeconds(last) : undefined;
}

/** A poster frame: the first frame of the video, as WebP. */
async function posterFrame(tools: MediaTools, file: string, timeoutMs: number) {
  const run = await runTool(
    tools.ffmpegPath,
    [
      '-nostdin',
      '-v',
      'error',
      '-ss',
      '0',
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      `scale=w='min(${THUMB_MAX_SIDE},iw)':h='min(${THUMB_MAX_SIDE},ih)':force_original_aspect_ratio=decrease`,
      '-f',
      'image2pipe',
      '-vcodec',
      'png',
      '-',
    ],
    timeoutMs,
  );
  if (!run || run.code !== 0 || run.stdout.length === 0) return undefined;
  try {
    return await sharp(run.stdout, { limitInputPixels: MAX_IMAGE_PIXELS }).webp({ quality: 80 }).toBuffer();
  } catch {
    return undefined;
  }
}

/**
 * Duration (audio and video), size and poster frame (video) of the file at `path`, with ffprobe/ffmpeg. Missing
 * tools, timeouts and files they cannot read give empty facts, never an error.
 */
export function probeAv(tools: MediaTools, file: string, wantPoster: boolean): Promise<AvFacts> {
  return inSlot(() => avFacts(tools, file, wantPoster));
}

async function avFacts(tools: MediaTools, file: string, wantPoster: boolean): Promise<AvFacts> {
  const timeoutMs = tools.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const run = await runTool(
    tools.ffprobePath,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
    timeoutMs,
  );
  if (!run || run.code !== 0) return {};
  let probe: { format?: { duration?: string }; streams?: ProbeStream[] };
  try {
    probe = JSON.parse(run.stdout.toString('utf8')) as typeof probe;
  } catch {
    return {};
  }
  const video = probe.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const facts: AvFacts = { hasVideo: video !== undefined };
  const stated = Number(probe.format?.duration);
  const duration =
    Number.isFinite(stated) && stated > 0 ? stated : await measuredDuration(tools, file, timeoutMs);
  if (duration !== undefined) facts.duration = Math.round(duration * 1000) / 1000;
  if (video?.width && video.height) {
    const rotation = Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0);
    const turned = Math.abs(rotation) % 180 === 90;
    facts.width = turned ? video.height : video.width;
    facts.height = turned ? video.width : video.height;
    if (wantPoster) {
      const poster = await posterFrame(tools, file, timeoutMs);
      if (poster) facts.poster = poster;
    }
  }
  return facts;
}
