import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatAs } from './support/chat-api.js';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { DEMO, openChannel, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * The attachment list in real Chromium (issue 14, chat-spec §2): image, gallery with "+N more", video, audio,
 * file, voice recording with its waveform, the quoted preview, and the carousel (open, next, Escape), at 1280 px
 * and 375 px. Uploads are another part of the issue, so the messages are sent through the chat API with media as
 * `data:` URLs made by ffmpeg (the page's CSP lets images and media come only from the app, `blob:` and `data:`;
 * an image on another origin would be refused, which is the point).
 */
const GROUP = 'Bennett family plan';
const FFMPEG = '/usr/bin/ffmpeg';
const LIVE = { timeout: 15_000 };

function ffmpeg(args: string[], out: string): string {
  execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);
  return out;
}

function dataUrl(file: string, mime: string): string {
  return `data:${mime};base64,${fs.readFileSync(file).toString('base64')}`;
}

/** Test media: photos of different sizes and patterns, a short video and its poster, an audio clip, a PDF. */
function makeMedia(dir: string) {
  const patterns = ['testsrc', 'testsrc2', 'smptebars', 'rgbtestsrc', 'mandelbrot', 'yuvtestsrc'];
  const photos = patterns.map((pattern, i) => {
    const [w, h] = i === 1 ? [360, 540] : [640, 480];
    const file = ffmpeg(
      ['-f', 'lavfi', '-i', `${pattern}=size=${w}x${h}`, '-frames:v', '1', '-q:v', '12'],
      path.join(dir, `photo${i}.jpg`),
    );
    return { url: dataUrl(file, 'image/jpeg'), width: w, height: h };
  });
  const video = ffmpeg(
    [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=10',
      '-t',
      '2',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
    ],
    path.join(dir, 'clip.mp4'),
  );
  const poster = ffmpeg(
    ['-f', 'lavfi', '-i', 'testsrc=size=320x240', '-frames:v', '1', '-q:v', '10'],
    path.join(dir, 'poster.jpg'),
  );
  const audio = ffmpeg(
    ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-c:a', 'libmp3lame', '-b:a', '32k'],
    path.join(dir, 'call.mp3'),
  );
  const voice = ffmpeg(
    ['-f', 'lavfi', '-i', 'sine=frequency=300:duration=4', '-c:a', 'libopus', '-b:a', '16k'],
    path.join(dir, 'voice.webm'),
  );
  const pdf = Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
  return {
    photos,
    video: dataUrl(video, 'video/mp4'),
    poster: dataUrl(poster, 'image/jpeg'),
    audio: dataUrl(audio, 'audio/mpeg'),
    audioSize: fs.statSync(audio).size,
    voice: dataUrl(voice, 'audio/webm'),
    pdf: `data:application/pdf;base64,${pdf.toString('base64')}`,
  };
}

function cidOf(page: Page): string {
  const [, , , type, id] = new URL(page.url()).pathname.split('/');
  return `${decodeURIComponent(type ?? '')}:${decodeURIComponent(id ?? '')}`;
}

/**
 * The bubble of the message with `id`, scrolled into view. The list is virtual: a message far from the bottom is
 * not in the page until the list scrolls near it, so scroll up a step at a time until it is.
 */
async function bubble(page: Page, id: string) {
  const item = page.locator(`article[data-message-id="${id}"]`);
  const scroller = page.locator('.message-scroller').first();
  if ((await item.count()) === 0) {
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForTimeout(300);
  }
  for (let step = 0; step < 40 && (await item.count()) === 0; step++) {
    await scroller.evaluate((el) => el.scrollBy(0, -300));
    await page.waitForTimeout(100);
  }
  await item.waitFor(LIVE);
  await item.scrollIntoViewIfNeeded();
  return item;
}

/** True once every `<img>` inside `scope` has decoded. */
async function imagesLoaded(page: Page, selector: string): Promise<void> {
  await page.waitForFunction(
    (sel) => {
      const imgs = Array.from(document.querySelectorAll<HTMLImageElement>(`${sel} img`));
      return imgs.length > 0 && imgs.every((img) => img.complete && img.naturalWidth > 0);
    },
    selector,
    LIVE,
  );
}

describe('attachments in messages (issue 14) in real Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let media: ReturnType<typeof makeMedia>;
  let dir: string;
  const users: UserPage[] = [];
  const ids: Record<string, string> = {};
  let removeAsNoah: (id: string) => Promise<unknown> = () => Promise.resolve();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'caseroom-attachments-'));
    media = makeMedia(dir);
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });

  afterAll(async () => {
    for (const user of users) await user.context.close();
    await browser?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('renders image, gallery, video, audio, file, voice and the quoted attachment at 1280 px; the carousel steps and closes', async () => {
    const maria = await openUserPage(browser, server.url, { viewport: { width: 1280, height: 900 } });
    users.push(maria);
    const { page } = maria;
    await signIn(page, DEMO.maria.email);
    await openChannel(page, GROUP);
    const cid = cidOf(page);
    const noah = await chatAs(server.url, DEMO.noah.email);
    const send = noah.sendMessage;
    removeAsNoah = noah.remove;
    const [one, ...rest] = media.photos;
    ids.photo = (
      await send(cid, {
        text: 'Photo of the letter',
        attachments: [
          {
            type: 'image',
            image_url: one!.url,
            title: 'Letter from the school',
            original_width: one!.width,
            original_height: one!.height,
          },
        ],
      })
    ).id;
    ids.gallery = (
      await send(cid, {
        text: 'All six pages',
        attachments: media.photos.map((p, i) => ({
          type: 'image',
          image_url: p.url,
          title: `Page ${i + 1}`,
          original_width: p.width,
          original_height: p.height,
        })),
      })
    ).id;
    ids.video = (
      await send(cid, {
        text: 'A short clip',
        attachments: [
          {
            type: 'video',
            asset_url: media.video,
            thumb_url: media.poster,
            title: 'clip.mp4',
            mime_type: 'video/mp4',
            original_width: 320,
            original_height: 240,
          },
        ],
      })
    ).id;
    ids.files = (
      await send(cid, {
        text: 'The form and the call',
        attachments: [
          {
            type: 'file',
            asset_url: media.pdf,
            title: 'Application form.pdf',
            mime_type: 'application/pdf',
            file_size: 184_320,
          },
          {
            type: 'audio',
            asset_url: media.audio,
            title: 'Call with the school.mp3',
            mime_type: 'audio/mpeg',
            file_size: media.audioSize,
          },
        ],
      })
    ).id;
    const waveform = Array.from({ length: 100 }, (_, i) => Math.abs(Math.sin(i / 6)) * 0.8 + 0.1);
    ids.voice = (
      await send(cid, {
        text: '',
        attachments: [
          {
            type: 'voiceRecording',
            asset_url: media.voice,
            mime_type: 'audio/webm',
            duration: 4,
            waveform_data: waveform,
          },
        ],
      })
    ).id;
    ids.onlyImage = (
      await send(cid, {
        text: '',
        attachments: [
          {
            type: 'image',
            image_url: rest[1]!.url,
            original_width: rest[1]!.width,
            original_height: rest[1]!.height,
          },
        ],
      })
    ).id;
    ids.quote = (await send(cid, { text: 'About this letter', quoted_message_id: ids.photo })).id;

    // Newest first, scrolling up through the virtual list, once the last one arrived.
    await page.getByRole('navigation', { name: 'Chats' }).getByText('About this letter').waitFor(LIVE);
    // The quote shows the first attachment as a thumbnail.
    const quote = await bubble(page, ids.quote);
    await imagesLoaded(page, `article[data-message-id="${ids.quote}"] .quoted-thumb`);
    expect(await quote.locator('.quoted-attachment-name').textContent()).toBe('Letter from the school');

    // An attachment-only message is a picture, not an empty bubble.
    const onlyImage = await bubble(page, ids.onlyImage);
    expect(await onlyImage.locator('.attachments img').count()).toBe(1);

    // Voice: 40 bars, duration, rate cycle, plays and fills the bars.
    const voice = await bubble(page, ids.voice);
    expect(await voice.locator('.voice-bar').count()).toBe(40);
    expect(await voice.locator('.voice-time-full').textContent()).toBe('00:00 / 00:04');
    const rate = voice.getByRole('button', { name: /Playback speed/ });
    const rates: string[] = [];
    for (let i = 0; i < 3; i++) {
      rates.push((await rate.textContent()) ?? '');
      await rate.click();
    }
    expect(rates).toEqual(['1.0x', '1.5x', '2.0x']);
    await voice.getByRole('button', { name: 'Play', exact: true }).click();
    await voice.locator('.voice-bar-played').first().waitFor(LIVE);
    await voice.getByRole('button', { name: 'Pause', exact: true }).click();
    const position = voice.getByRole('slider', { name: 'Playback position' });
    await position.focus();
    await page.keyboard.press('End');
    await expect.poll(() => position.getAttribute('aria-valuenow')).toBe('4');
    await page.keyboard.press('Home');
    await expect.poll(() => position.getAttribute('aria-valuenow')).toBe('0');
    expect(await voice.locator('.voice-bar-played').count()).toBe(0);
    expect(await voice.locator('.voice-player').getAttribute('data-state')).not.toBe('error');

    // File card and audio.
    const files = await bubble(page, ids.files);
    await files.getByText('Application form.pdf').waitFor();
    expect(await files.locator('.attachment-file .attachment-file-size').textContent()).toBe('180 KB');
    await page.waitForFunction(
      (id) => {
        const a = document.querySelector<HTMLAudioElement>(
          `article[data-message-id="${id}"] .attachment-audio audio`,
        );
        return a !== null && a.duration > 2;
      },
      ids.files,
      LIVE,
    );

    await screenshot(page, 'chat-attachments-media-1280');

    // Video: poster and metadata.
    const video = await bubble(page, ids.video);
    await page.waitForFunction(
      (id) => {
        const v = document.querySelector<HTMLVideoElement>(`article[data-message-id="${id}"] video`);
        return v !== null && v.readyState >= 1 && v.duration > 1;
      },
      ids.video,
      LIVE,
    );
    expect(await video.locator('video').getAttribute('preload')).toBe('metadata');

    // Gallery: 4 tiles, the fourth "+3 more".
    const gallery = await bubble(page, ids.gallery);
    const tiles = gallery.getByRole('group', { name: 'Gallery of 6 images' }).getByRole('button');
    expect(await tiles.count()).toBe(4);
    expect(await tiles.nth(3).textContent()).toBe('+3 more');
    await imagesLoaded(page, `article[data-message-id="${ids.gallery}"] .attachment-gallery`);

    // A single image: loaded, sized by its aspect ratio within 300 px, alt text from the title.
    const photo = await bubble(page, ids.photo);
    await imagesLoaded(page, `article[data-message-id="${ids.photo}"] .attachments`);
    const box = await photo.getByRole('button', { name: 'Letter from the school' }).boundingBox();
    expect(box && [Math.round(box.width), Math.round(box.height)]).toEqual([300, 225]);

    await gallery.scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-attachments-1280');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Carousel: open at tile 2, next by button and key, Escape closes, focus returns to the tile.
    await tiles.nth(1).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.getByRole('heading').textContent()).toContain('2 / 6');
    await dialog.getByRole('button', { name: 'Next image' }).click();
    await expect.poll(() => dialog.getByRole('heading').textContent()).toContain('3 / 6');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => dialog.getByRole('heading').textContent()).toContain('4 / 6');
    await imagesLoaded(page, 'dialog.carousel');
    expect(await dialog.getByRole('img').getAttribute('alt')).toBe('Page 4');
    await screenshot(page, 'chat-attachments-carousel-1280');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Open image 2 of 6',
    );

    // Opened again, a click outside the image's box (on the backdrop) closes it too.
    await tiles.nth(3).click();
    await expect.poll(() => page.getByRole('dialog').getByRole('heading').textContent()).toContain('4 / 6');
    await imagesLoaded(page, 'dialog.carousel');
    await page.mouse.click(100, 880);
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(pageProblems(maria)).toEqual([]);
  });

  it('fits a phone at 375 px', async () => {
    const phone = await openUserPage(browser, server.url, { viewport: { width: 375, height: 812 } });
    users.push(phone);
    const { page } = phone;
    await signIn(page, DEMO.maria.email);
    await openChannel(page, GROUP);
    for (const key of ['voice', 'files', 'gallery']) {
      const item = await bubble(page, ids[key]!);
      const box = await item.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(375);
      const inner = await item.locator('.attachments').boundingBox();
      expect(inner && inner.x + inner.width).toBeLessThanOrEqual(375);
    }
    // A phone shows one time: the duration until it plays.
    expect(await (await bubble(page, ids.voice!)).locator('.voice-time').innerText()).toBe('00:04');
    await (await bubble(page, ids.files!)).scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-attachments-media-375');
    const gallery = await bubble(page, ids.gallery!);
    await imagesLoaded(page, `article[data-message-id="${ids.gallery}"] .attachment-gallery`);
    await screenshot(page, 'chat-attachments-375');
    await gallery.getByRole('button', { name: 'Open image 1 of 6' }).click();
    await imagesLoaded(page, 'dialog.carousel');
    await screenshot(page, 'chat-attachments-carousel-375');
    // On a phone the chat is itself a modal popup: Escape closes the carousel only.
    await page.keyboard.press('Escape');
    await page.locator('dialog.carousel').waitFor({ state: 'detached' });
    expect(await page.locator('dialog.chat-popup').isVisible()).toBe(true);

    // A deleted message shows no attachments.
    const deleted = await bubble(page, ids.onlyImage!);
    expect(await deleted.locator('.attachments img').count()).toBe(1);
    await removeAsNoah(ids.onlyImage!);
    await deleted.getByText('This message was deleted').waitFor(LIVE);
    expect(await deleted.locator('.attachments').count()).toBe(0);
    expect(pageProblems(phone)).toEqual([]);
  });
});
