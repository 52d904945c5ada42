import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { DEMO, openChannel, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

/** The recording as it was really sent: the `voiceRecording` attachment of the message and its uploaded file. */
interface SentRecording {
  name: string;
  type: string;
  size: number;
  mime_type: string;
  duration: number;
  waveform_data: number[];
  bytes: Buffer;
}

type Watched = Window & { voiceStates?: string[] };

/**
 * Records the recorder's `data-state`/`data-pending` as they change (a MutationObserver, so no state is missed
 * between two polls).
 */
async function watchRecorder(page: Page): Promise<void> {
  await page.evaluate(() => {
    const states: string[] = [];
    (window as Watched).voiceStates = states;
    let last = 'closed';
    const note = () => {
      const el = document.querySelector<HTMLElement>('.voice-recorder');
      const now = el ? `${el.dataset.state}${el.dataset.pending ? `:${el.dataset.pending}` : ''}` : 'closed';
      if (now !== last) states.push((last = now));
    };
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state', 'data-pending'],
    });
  });
}

const states = (page: Page) => page.evaluate(() => (window as Watched).voiceStates!);

/** The composer's uploads (`POST /chat/channels/{type}/{id}/file`, or `/image`). */
const isUpload = (request: Request) =>
  request.method() === 'POST' &&
  /^\/chat\/channels\/[^/]+\/[^/]+\/(file|image)$/.test(new URL(request.url()).pathname);
const isSend = (request: Request) =>
  request.method() === 'POST' &&
  /^\/chat\/channels\/[^/]+\/[^/]+\/message$/.test(new URL(request.url()).pathname);

/** Every upload request a page makes, to prove that a deleted recording is never uploaded. */
function uploadsOf(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (isUpload(request)) seen.push(new URL(request.url()).pathname);
  });
  return seen;
}

/**
 * Runs `finish` (the click or key that ends the recording) and follows what the composer really does with the
 * recording: it uploads the file, then sends the message with a `voiceRecording` attachment (send at once is the
 * default). The file is downloaded again with the page's own chat credentials.
 */
async function sentRecording(page: Page, finish: () => Promise<void>): Promise<SentRecording> {
  const upload = page.waitForResponse((r) => isUpload(r.request()), { timeout: 15_000 });
  const send = page.waitForResponse((r) => isSend(r.request()), { timeout: 15_000 });
  await finish();
  const uploaded = await upload;
  expect([200, 201]).toContain(uploaded.status());
  const { file } = (await uploaded.json()) as { file: string };
  const sent = await send;
  expect([200, 201]).toContain(sent.status());
  const { message } = (await sent.json()) as {
    message: { id: string; attachments?: Array<Record<string, unknown>> };
  };
  expect(message.attachments).toHaveLength(1);
  const attachment = message.attachments![0]! as {
    type: string;
    asset_url: string;
    title: string;
    mime_type: string;
    file_size: number;
    duration: number;
    waveform_data: number[];
  };
  expect(attachment.type).toBe('voiceRecording');
  expect(attachment.asset_url).toBe(file);
  // The message shows the voice player.
  await page.locator(`article[data-message-id="${message.id}"] .voice-player`).waitFor({ timeout: 15_000 });
  // The page's own credentials (the chat token in the header, api_key and user_id in the query).
  const request = uploaded.request();
  const credentials = new URL(request.url()).searchParams;
  const fileUrl = new URL(file, request.url());
  for (const key of ['api_key', 'user_id']) fileUrl.searchParams.set(key, credentials.get(key) ?? '');
  const headers = await request.allHeaders();
  const download = await fetch(fileUrl, {
    headers: { authorization: headers.authorization ?? '', 'auth-type': headers['auth-type'] ?? 'jwt' },
  });
  expect(download.status).toBe(200);
  const bytes = Buffer.from(await download.arrayBuffer());
  expect(bytes.length).toBe(attachment.file_size);
  return {
    name: attachment.title,
    type: (download.headers.get('content-type') ?? '').split(';')[0]!,
    size: bytes.length,
    mime_type: attachment.mime_type,
    duration: attachment.duration,
    waveform_data: attachment.waveform_data,
    bytes,
  };
}

const recorderGroup = (page: Page) => page.getByRole('group', { name: 'Voice recorder' });
const recordButton = (page: Page) => page.getByRole('button', { name: 'Record voice message' });

async function waitForState(page: Page, state: string): Promise<number> {
  await page.locator(`.voice-recorder[data-state="${state}"]:not([data-pending])`).waitFor();
  return Date.now();
}

describe('voice recorder in real Chromium (fake microphone)', () => {
  let server: RunningServer;
  let browser: Browser;
  let denyingBrowser: Browser;
  const users: UserPage[] = [];

  beforeAll(async () => {
    [server, browser, denyingBrowser] = await Promise.all([
      startServer(),
      launchBrowser({ fakeMedia: { allow: true } }),
      launchBrowser({ fakeMedia: { allow: false } }),
    ]);
  });

  afterAll(async () => {
    for (const user of users) await user.context.close().catch(() => undefined);
    await browser?.close();
    await denyingBrowser?.close();
    await server?.stop();
  });

  async function open(on: Browser, width = 1200, init?: () => void): Promise<UserPage> {
    const user = await openUserPage(on, server.url, { viewport: { width, height: width < 600 ? 740 : 800 } });
    users.push(user);
    if (init) await user.page.addInitScript(init);
    await signIn(user.page, DEMO.maria.email);
    await openChannel(user.page, DEMO.chloe.name);
    await watchRecorder(user.page);
    return user;
  }

  it('records, pauses, resumes and stops: webm, duration without the pause, 100 waveform samples', async () => {
    const maria = await open(browser);
    const { page } = maria;
    await screenshot(page, 'voice-recorder-desktop-idle');
    await recordButton(page).click();
    const startedAt = await waitForState(page, 'recording');
    // The recorder replaces the input; the send button has the focus.
    expect(await page.getByRole('textbox', { name: 'Message' }).isVisible()).toBe(false);
    expect(await recorderGroup(page).locator('.voice-bar').count()).toBe(40);
    await page.waitForTimeout(2_000);
    expect(await recorderGroup(page).getByRole('timer').innerText()).toMatch(/^00:0[12]$/);
    await recorderGroup(page).getByRole('button', { name: 'Pause recording' }).click();
    const pausedAt = await waitForState(page, 'paused');
    await screenshot(page, 'voice-recorder-desktop-paused');
    await page.waitForTimeout(1_500);
    const timerWhilePaused = await recorderGroup(page).getByRole('timer').innerText();
    await recorderGroup(page).getByRole('button', { name: 'Resume recording' }).click();
    const resumedAt = await waitForState(page, 'recording');
    expect(await recorderGroup(page).getByRole('timer').innerText()).toBe(timerWhilePaused); // pause not counted
    await page.waitForTimeout(1_000);
    // The live bars moved with the fake microphone's tone.
    const heights = await recorderGroup(page)
      .locator('.voice-bar')
      .evaluateAll((bars) => bars.map((b) => (b as HTMLElement).style.height));
    expect(heights.some((h) => h !== '8%')).toBe(true);
    await screenshot(page, 'voice-recorder-desktop-recording');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Keyboard: the main action (send) has the focus; Enter presses it.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Send voice message',
    );
    const stoppedAt = Date.now();
    const recording = await sentRecording(page, () => page.keyboard.press('Enter'));
    await recorderGroup(page).waitFor({ state: 'detached' });

    expect(await states(page)).toEqual([
      'stopped:starting',
      'recording',
      'paused',
      'recording',
      'recording:stopping',
      'closed',
    ]);
    const expected = (pausedAt - startedAt + (stoppedAt - resumedAt)) / 1000;
    process.stdout.write(
      `[e2e] voice: ${recording.duration}s recorded, ~${expected.toFixed(2)}s expected, ${recording.size} bytes ${recording.type}\n`,
    );
    expect(recording.mime_type).toBe('audio/webm');
    expect(recording.type).toBe('audio/webm');
    expect(recording.name).toMatch(/^voice-recording-\d{4}-\d\d-\d\dT[\d-]+Z\.webm$/);
    expect([...recording.bytes.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]); // EBML: a real WebM file
    expect(recording.size).toBeGreaterThan(1_000);
    // Voice bit rate (32 kbit/s asked for), not the browser's music default (about 128 kbit/s).
    expect((recording.size * 8) / recording.duration).toBeLessThan(48_000);
    // The test sees each state a little after it happened and presses stop a little before it does, so the
    // recording may run slightly longer than measured here; the 1.5 s pause is left out either way.
    expect(recording.duration).toBeGreaterThan(expected - 0.3);
    expect(recording.duration).toBeLessThan(expected + 0.75);
    expect(recording.duration).toBeGreaterThan(2.5);
    expect(recording.waveform_data).toHaveLength(100);
    expect(recording.waveform_data.every((n) => n >= 0 && n <= 1)).toBe(true);
    expect(recording.waveform_data.some((n) => n > 0.05)).toBe(true);
    // The input is back, with the focus.
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(pageProblems(maria)).toEqual([]);
  });

  it('at 375 px the recorder fits the composer; Escape deletes the recording', async () => {
    const phone = await open(browser, 375);
    const { page } = phone;
    const uploads = uploadsOf(page);
    await recordButton(page).click();
    await waitForState(page, 'recording');
    await page.waitForTimeout(700);
    await screenshot(page, 'voice-recorder-375');
    const box = await recorderGroup(page).boundingBox();
    process.stdout.write(
      `[e2e] voice 375: recorder ${JSON.stringify(box)}, composer ${JSON.stringify(await page.locator('form.composer').boundingBox())}, doc ${await page.evaluate(() => document.documentElement.scrollWidth)}\n`,
    );
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    await page.keyboard.press('Escape');
    await recorderGroup(page).waitFor({ state: 'detached' });
    expect(await states(page)).toEqual(['stopped:starting', 'recording', 'closed']);
    // Nothing was uploaded or sent, nothing waits in the composer.
    await page.waitForTimeout(500);
    expect(uploads).toEqual([]);
    expect(await page.getByRole('list', { name: 'Attachments' }).count()).toBe(0);
    expect(pageProblems(phone)).toEqual([]);
  });

  it('falls back to mp4 (AAC), then to WAV at 16 kHz 16-bit, where the browser cannot record webm', async () => {
    // The page's MediaRecorder answers as a browser without webm (and, for the WAV run, without mp4) would.
    const cases = [
      {
        mime: 'audio/mp4',
        init: () => {
          const original = MediaRecorder.isTypeSupported.bind(MediaRecorder);
          MediaRecorder.isTypeSupported = (type: string) => !type.includes('webm') && original(type);
        },
      },
      { mime: 'audio/wav', init: () => (MediaRecorder.isTypeSupported = () => false) },
    ];
    for (const { mime, init } of cases) {
      const user = await open(browser, 1200, init);
      const { page } = user;
      const mp4Supported = await page.evaluate(() => MediaRecorder.isTypeSupported('audio/mp4'));
      if (mime === 'audio/mp4' && !mp4Supported) {
        process.stdout.write('[e2e] voice: this Chromium cannot record audio/mp4; the mp4 run is skipped\n');
        continue;
      }
      await recordButton(page).click();
      const startedAt = await waitForState(page, 'recording');
      await page.waitForTimeout(1_500);
      const stoppedAt = Date.now();
      const recording = await sentRecording(page, () =>
        recorderGroup(page).getByRole('button', { name: 'Send voice message' }).click(),
      );
      process.stdout.write(`[e2e] voice ${mime}: ${recording.duration}s, ${recording.size} bytes\n`);
      expect(recording.mime_type).toBe(mime);
      expect(recording.type).toBe(mime);
      expect(recording.duration).toBeGreaterThan((stoppedAt - startedAt) / 1000 - 0.3);
      expect(recording.duration).toBeLessThan((stoppedAt - startedAt) / 1000 + 0.75);
      expect(recording.waveform_data.some((n) => n > 0.05)).toBe(true);
      if (mime === 'audio/wav') {
        expect(recording.name).toMatch(/\.wav$/);
        expect(recording.bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
        const view = recording.bytes;
        const header = {
          format: view.readUInt16LE(20),
          channels: view.readUInt16LE(22),
          rate: view.readUInt32LE(24),
          bits: view.readUInt16LE(34),
          data: view.readUInt32LE(40),
          size: view.length,
        };
        // The recording's length of 16 kHz, 16-bit mono PCM after the 44-byte header.
        expect(header).toMatchObject({ format: 1, channels: 1, rate: 16_000, bits: 16 });
        expect(header.size).toBe(44 + header.data);
        expect(header.data / 2 / 16_000).toBeGreaterThan(recording.duration - 0.3);
        expect(header.data / 2 / 16_000).toBeLessThan(recording.duration + 0.3);
      } else {
        expect(recording.name).toMatch(/\.mp4$/);
        expect(recording.bytes.subarray(0, 4).toString('latin1')).not.toBe('RIFF');
      }
      expect(pageProblems(user)).toEqual([]);
    }
  });

  it('a refused microphone shows "Please grant permission to use microhpone"', async () => {
    const denied = await open(denyingBrowser);
    const { page } = denied;
    await recordButton(page).click();
    const alert = recorderGroup(page).getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe('Please grant permission to use microhpone');
    expect(await states(page)).toEqual(['stopped:starting', 'error']);
    await screenshot(page, 'voice-recorder-denied');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await recorderGroup(page).getByRole('button', { name: 'Close recorder' }).click();
    await recorderGroup(page).waitFor({ state: 'detached' });
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(pageProblems(denied)).toEqual([]);
  });
});
