import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Media made for upload tests: images with sharp, audio and video with Debian's ffmpeg (lavfi test sources), written
 * to a temporary directory of the caller's.
 */

export const tempMediaDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'caseroom-media-'));

/** A photo-like JPEG with EXIF GPS (Oslo) and orientation 6 (shown rotated: 200×300 for a 300×200 image). */
export async function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 300, height: 200, channels: 3, background: '#3a7' } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'GPS 1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '59/1 54/1 4500/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '10/1 45/1 2100/100',
      },
    })
    .toBuffer();
}

export const png = (width: number, height: number, background = '#c33') =>
  sharp({ create: { width, height, channels: 4, background } })
    .png()
    .toBuffer();

/** An animated GIF of `frames` frames of `size`×`size`. */
export async function animatedGif(frames: number, size = 40): Promise<Buffer> {
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      sharp({ create: { width: size, height: size, channels: 3, background: { r: 60 * i, g: 0, b: 99 } } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(pages, { join: { animated: true } })
    .gif()
    .toBuffer();
}

/** Whether EXIF data holds a GPS block (the GPS IFD pointer, tag 0x8825, in either byte order). */
export const hasGpsIfd = (exif: Buffer | undefined) =>
  !!exif && (exif.includes(Buffer.from([0x25, 0x88])) || exif.includes(Buffer.from([0x88, 0x25])));

/** Runs ffmpeg (no shell) and answers the bytes of `name` it wrote in `dir`. */
export function ffmpegMake(dir: string, name: string, args: string[]): Buffer {
  const out = path.join(dir, name);
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, out], { stdio: 'pipe' });
  return fs.readFileSync(out);
}

/** Two seconds of 320×240 test video (MPEG-4 part 2 in MP4). */
export const testVideo = (dir: string) =>
  ffmpegMake(dir, 'clip.mp4', [
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=2:size=320x240:rate=10',
    '-c:v',
    'mpeg4',
  ]);

/** Three seconds of a sine as a voice recording: Opus in WebM written "live" (no duration, as MediaRecorder). */
export const voiceWebm = (dir: string) =>
  ffmpegMake(dir, 'voice.webm', [
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=3',
    '-c:a',
    'libopus',
    '-live',
    '1',
    '-f',
    'webm',
  ]);

/** Three seconds of AAC in MP4 (Safari's voice recordings). */
export const voiceMp4 = (dir: string) =>
  ffmpegMake(dir, 'voice.m4a', ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-c:a', 'aac']);

/** One second of 16-bit PCM WAV (the recorder's fallback). */
export const voiceWav = (dir: string) =>
  ffmpegMake(dir, 'voice.wav', ['-f', 'lavfi', '-i', 'sine=duration=1', '-ar', '16000']);
