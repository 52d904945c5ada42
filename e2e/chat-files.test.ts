import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import { SignJWT } from 'jose';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { composer, DEMO, DEMO_PASSWORD, openChannel, signIn } from './support/caseroom.js';
import { dropFile, pasteFile, previews } from './support/files.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Issue 14 "Done when", end to end in real Chromium: two users of the group chat exchange a photo (pasted, with GPS
 * EXIF that the server strips), a PDF (dropped), a voice message (recorded with Chromium's fake microphone) and a
 * link with its preview card from a local test site, once from the desktop (1280 px) to the phone (375 px) and once
 * the other way. Then every file URL of those messages answers a member, and refuses an outsider and a member who
 * was removed from the case plan (and so from its chat) after reading them.
 */
const GROUP = 'Bennett family plan';
const LIVE = { timeout: 20_000 };
/** The development chat secret every e2e server runs with (packages/server/src/platform/config.ts). */
const DEV_CHAT_SECRET = 'caseroom-dev-chat-secret-change-me';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/** A small valid PDF (catalog, one empty page). */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A 640x480 JPEG photo with a camera make and a GPS position in its EXIF. */
async function photoWithGps(): Promise<Buffer> {
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><rect width="640" height="480" fill="#2f6f8f"/>` +
      `<circle cx="320" cy="240" r="150" fill="#f2c14e"/><rect x="40" y="380" width="560" height="60" fill="#ffffff"/></svg>`,
  );
  return sharp(svg)
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: 'E2ECam', Model: 'Issue14' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 2646/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 3954/100',
      },
    })
    .toBuffer();
}

const OG_HTML = (title: string) => `<!doctype html><html><head><title>fallback</title>
<meta property="og:title" content="${title}">
<meta property="og:description" content="What the family needs to bring to the meeting.">
<meta property="og:site_name" content="School News">
</head><body>The page</body></html>`;

/** A chat API caller: a demo user's chat token (from `chat-getToken`) or any token minted with the secret. */
interface ChatCaller {
  uid: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** GET of a chat file URL with this caller's token in the header. */
  getFile(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }>;
}

async function apiKeyOf(baseUrl: string): Promise<string> {
  return ((await (await fetch(`${baseUrl}/api/config`)).json()) as { chatApiKey: string }).chatApiKey;
}

function caller(baseUrl: string, apiKey: string, uid: string, token: string): ChatCaller {
  const headers = { authorization: token, 'auth-type': 'jwt' };
  const withKey = (url: URL) => {
    url.searchParams.set('api_key', apiKey);
    if (uid) url.searchParams.set('user_id', uid);
    return url;
  };
  return {
    uid,
    async call(method, path, body) {
      const answer = await fetch(withKey(new URL(`/chat${path}`, baseUrl)), {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: answer.status, body: await answer.json().catch(() => null) };
    },
    async getFile(url) {
      const answer = await fetch(withKey(new URL(url, baseUrl)), { headers });
      return {
        status: answer.status,
        type: answer.headers.get('content-type'),
        bytes: Buffer.from(await answer.arrayBuffer()),
      };
    },
  };
}

/** Signs a demo user in through the product API: their session bearer, uid and chat caller. */
async function demoUser(baseUrl: string, apiKey: string, email: string) {
  const signedIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const session = (await signedIn.json()) as { token?: string };
  const bearer = session.token ?? signedIn.headers.get('set-auth-token') ?? '';
  const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', origin: baseUrl };
  const me = (await (await fetch(`${baseUrl}/api/me`, { headers })).json()) as { uid: string };
  const callable = async (name: string, data: unknown) => {
    const answer = await fetch(`${baseUrl}/api/functions/${name}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ data }),
    });
    return { status: answer.status, body: (await answer.json()) as { result?: unknown; error?: unknown } };
  };
  const tokenAnswer = await callable('chat-getToken', {});
  const result = tokenAnswer.body.result as string | { token: string };
  const token = typeof result === 'string' ? result : result.token;
  return { uid: me.uid, callable, chat: caller(baseUrl, apiKey, me.uid, token) };
}

/** The same stable ids the demo seed gives its objects (packages/server/src/product/seed/demo-data.ts). */
function demoId(label: string): string {
  const h = crypto.createHash('sha256').update(`caseroom-demo:${label}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const mint = (claims: { user_id: string } | { server: true }) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(new TextEncoder().encode(DEV_CHAT_SECRET));

function cidOf(page: Page): string {
  const [, , , type, id] = new URL(page.url()).pathname.split('/');
  return `${decodeURIComponent(type ?? '')}:${decodeURIComponent(id ?? '')}`;
}

/**
 * The newest row of the list is wholly inside the list's viewport: the sender sees what they sent (a row's margins
 * once went uncounted by the virtual list, which then left the newest message below the fold).
 */
async function newestInView(page: Page): Promise<void> {
  const inView = () =>
    page.evaluate(() => {
      const scroller = document.querySelector('.message-scroller');
      const rows = scroller?.querySelectorAll('[role="listitem"]');
      const last = rows?.[rows.length - 1];
      if (!scroller || !last) return 'no rows';
      const gap = last.getBoundingClientRect().bottom - scroller.getBoundingClientRect().bottom;
      return gap <= 2 ? 'in view' : `${Math.round(gap)} px below the fold`;
    });
  await expect.poll(inView, { timeout: 5_000 }).toBe('in view');
}

/** Sends with Enter and waits until the server has the message (the sender's bubble is `received`). */
async function sendAndWait(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await page.locator('[data-status="received"]', { hasText: text }).first().waitFor(LIVE);
  expect(await previews(page).count()).toBe(0);
  await newestInView(page);
}

const isUpload = (url: string, method: string) =>
  method === 'POST' &&
  /\/chat\/(channels\/[^/]+\/[^/]+|uploads)\/(file|image)(\?|$)/.test(new URL(url).pathname + '?');

describe('files, images, voice and links between two users (issue 14) in real Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let site: http.Server;
  let sitePort = 0;
  let photo: Buffer;
  let apiKey = '';
  const users: UserPage[] = [];
  /** Image answers the receivers' browsers got when opening the photos (checked for EXIF). */
  let imagesSeen = 0;

  beforeAll(async () => {
    photo = await photoWithGps();
    site = http.createServer((req, res) => {
      const match = /^\/notice\/(\w+)$/.exec(req.url ?? '');
      if (match)
        res.writeHead(200, { 'content-type': 'text/html' }).end(OG_HTML(`School notice ${match[1]}`));
      else res.writeHead(404).end();
    });
    sitePort = await new Promise<number>((resolve) =>
      site.listen(0, '127.0.0.2', () => resolve((site.address() as net.AddressInfo).port)),
    );
    [server, browser] = await Promise.all([
      startServer({
        env: { HTTP_OUT_ALLOW: '127.0.0.2', HTTP_OUT_RESOLVE: 'news.example.com=127.0.0.2' },
      }),
      launchBrowser({ fakeMedia: { allow: true } }),
    ]);
    apiKey = await apiKeyOf(server.url);
  });

  afterAll(async () => {
    for (const user of users) await user.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
    await new Promise((r) => site?.close(r));
  });

  async function open(email: string, viewport: { width: number; height: number }): Promise<UserPage> {
    const user = await openUserPage(browser, server.url, { viewport });
    users.push(user);
    await signIn(user.page, email);
    await openChannel(user.page, GROUP);
    return user;
  }

  /** What one user sends: the four kinds, each its own message; answers the texts that identify them. */
  async function sendAll(page: Page, tag: string) {
    const texts = {
      photo: `photo ${tag}`,
      pdf: `pdf ${tag}`,
      link: `Read http://news.example.com:${sitePort}/notice/${tag} before the meeting`,
    };
    // 1. A pasted photo.
    const photoName = `photo-${tag}.jpg`;
    await pasteFile(page, photo, photoName, 'image/jpeg');
    await previews(page)
      .getByRole('button', { name: `Download ${photoName}` })
      .waitFor(LIVE);
    await sendAndWait(page, texts.photo);

    // 2. A dropped PDF.
    const pdfName = `plan-${tag}.pdf`;
    await dropFile(page, PDF, pdfName, 'application/pdf');
    await previews(page)
      .getByRole('button', { name: `Download ${pdfName}` })
      .waitFor(LIVE);
    await sendAndWait(page, texts.pdf);

    // 3. A voice message: about 2 s from the fake microphone, sent at once (the default).
    await page.getByRole('button', { name: 'Record voice message' }).click();
    await page.locator('.voice-recorder[data-state="recording"]:not([data-pending])').waitFor(LIVE);
    await page.waitForTimeout(2_000);
    const uploaded = page.waitForResponse((r) => isUpload(r.url(), r.request().method()), LIVE);
    const sent = page.waitForResponse(
      (r) =>
        r.request().method() === 'POST' &&
        /\/chat\/channels\/[^/]+\/[^/]+\/message$/.test(new URL(r.url()).pathname),
      LIVE,
    );
    await page
      .getByRole('group', { name: 'Voice recorder' })
      .getByRole('button', { name: 'Send voice message' })
      .click();
    expect([200, 201]).toContain((await uploaded).status());
    const voiceMessage = ((await (await sent).json()) as { message: { id: string } }).message;
    await page.locator(`article[data-message-id="${voiceMessage.id}"] .voice-player`).waitFor(LIVE);
    await newestInView(page);

    // 4. A link: the composer shows its preview, the message carries it.
    await composer(page).fill(texts.link);
    await page.getByRole('list', { name: 'Link previews' }).getByText(`School notice ${tag}`).waitFor(LIVE);
    await composer(page).press('Enter');
    await page.locator('[data-status="received"]', { hasText: `notice/${tag} before` }).waitFor(LIVE);
    await page
      .getByRole('log', { name: 'Messages' })
      .getByRole('listitem')
      .last()
      .getByTestId('link-card')
      .waitFor(LIVE);
    await newestInView(page);
    return { texts, photoName, pdfName, voiceId: voiceMessage.id };
  }

  /** The receiver sees each of the four. */
  async function receiveAll(receiver: UserPage, sentOut: Awaited<ReturnType<typeof sendAll>>, tag: string) {
    const { page } = receiver;
    const width = page.viewportSize()!.width;
    const log = page.getByRole('log', { name: 'Messages' });
    const item = (text: string) => log.getByRole('listitem').filter({ hasText: text });

    // The photo, from a blob (the chat file fetched with the token), decoded and within the screen.
    const photoItem = item(sentOut.texts.photo);
    await photoItem.locator('.attachments img').waitFor(LIVE);
    await photoItem.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (text) => {
        const items = Array.from(document.querySelectorAll('[role="log"] [role="listitem"]'));
        const img = items
          .find((li) => li.textContent?.includes(text))
          ?.querySelector<HTMLImageElement>('.attachments img');
        return !!img && img.src.startsWith('blob:') && img.complete && img.naturalWidth > 0;
      },
      sentOut.texts.photo,
      LIVE,
    );
    const imgBox = await photoItem.locator('.attachments img').boundingBox();
    expect(imgBox!.x).toBeGreaterThanOrEqual(0);
    expect(imgBox!.x + imgBox!.width).toBeLessThanOrEqual(width);
    // Opened, the photo is what a person can save: the file the receiver's browser got for the carousel (the
    // original) came without the EXIF (camera, GPS position).
    // (Read on the way through a route: the SDK reads file bodies as streams, which Playwright cannot hand back.)
    const images: Array<{ url: string; body: Buffer }> = [];
    await page.route('**/chat/files/**', async (route) => {
      const answer = await route.fetch();
      const body = await answer.body();
      if ((answer.headers()['content-type'] ?? '').startsWith('image/') && answer.status() === 200)
        images.push({ url: new URL(route.request().url()).pathname, body });
      await route.fulfill({ response: answer, body });
    });
    await photoItem.locator('.attachment-image-button').click();
    const carousel = page.locator('dialog.carousel');
    await page.waitForFunction(
      () => {
        const img = document.querySelector<HTMLImageElement>('dialog.carousel img');
        return !!img && img.complete && img.naturalWidth > 0;
      },
      undefined,
      LIVE,
    );
    await page.unrouteAll({ behavior: 'wait' });
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      const meta = await sharp(image.body).metadata();
      expect([image.url, meta.width, meta.exif]).toEqual([image.url, 640, undefined]);
      expect(image.body.includes(Buffer.from('E2ECam'))).toBe(false);
    }
    imagesSeen += images.length;
    await page.keyboard.press('Escape');
    await carousel.waitFor({ state: 'detached' });

    // The PDF card: name, size, and a download that gives back the same bytes.
    const pdfItem = item(sentOut.texts.pdf);
    const card = pdfItem.locator('.attachment-file');
    await card.waitFor(LIVE);
    await card.scrollIntoViewIfNeeded();
    expect(await card.locator('.attachment-file-name').innerText()).toBe(sentOut.pdfName);
    expect(await card.locator('.attachment-file-size').innerText()).toMatch(/^\d+ B$/);
    const [download] = await Promise.all([
      page.waitForEvent('download', LIVE),
      card.getByRole('button', { name: `Download ${sentOut.pdfName}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(sentOut.pdfName);
    expect(fs.readFileSync(await download.path())).toEqual(PDF);
    const cardBox = await card.boundingBox();
    expect(cardBox!.x + cardBox!.width).toBeLessThanOrEqual(width);

    // The voice message: player, 40 bars drawn from the waveform, its duration.
    const voice = page.locator(`article[data-message-id="${sentOut.voiceId}"] .voice-player`);
    await voice.waitFor(LIVE);
    await voice.scrollIntoViewIfNeeded();
    expect(await voice.locator('.voice-bar').count()).toBe(40);
    const heights = await voice
      .locator('.voice-bar')
      .evaluateAll((bars) => new Set(bars.map((b) => (b as HTMLElement).style.height)).size);
    expect(heights).toBeGreaterThan(1); // the fake microphone's tone, not a flat line
    // The phone shows the duration only, the desktop position / duration (about 2 s recorded).
    expect(await voice.locator('.voice-time').innerText()).toMatch(/^(00:00 \/ )?00:0[12]$/);
    expect(await voice.getAttribute('data-state')).not.toBe('error');
    const voiceBox = await voice.boundingBox();
    expect(voiceBox!.x + voiceBox!.width).toBeLessThanOrEqual(width);

    // The link card from the test site.
    const linkCard = item(`notice/${tag} before`).getByTestId('link-card');
    await linkCard.waitFor(LIVE);
    await linkCard.scrollIntoViewIfNeeded();
    expect(await linkCard.innerText()).toContain(`School notice ${tag}`);
    expect(await linkCard.innerText()).toContain('School News');
    const linkBox = await linkCard.boundingBox();
    expect(linkBox!.x + linkBox!.width).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }

  it('desktop and phone exchange a pasted photo, a dropped PDF, a recorded voice message and a link; only members read the files', async () => {
    const [maria, chloe] = await Promise.all([
      open(DEMO.maria.email, DESKTOP),
      open(DEMO.chloe.email, PHONE),
    ]);
    const cid = cidOf(maria.page);
    const [type, id] = cid.split(':') as [string, string];

    // Round 1: desktop sends, phone receives.
    const first = await sendAll(maria.page, 'one');
    await screenshot(maria.page, 'chat-files-desktop-sent');
    await receiveAll(chloe, first, 'one');
    await screenshot(chloe.page, 'chat-files-phone-received');

    // Round 2: phone sends, desktop receives.
    const second = await sendAll(chloe.page, 'two');
    await screenshot(chloe.page, 'chat-files-phone-sent');
    await receiveAll(maria, second, 'two');
    await screenshot(maria.page, 'chat-files-desktop-received');
    expect(await seriousA11yViolations(maria.page)).toEqual([]);
    expect(await seriousA11yViolations(chloe.page)).toEqual([]);

    // The messages as the chat API has them (read by Noah, another member).
    const noah = await demoUser(server.url, apiKey, DEMO.noah.email);
    const query = await noah.chat.call('POST', `/channels/${type}/${id}/query`, { messages: { limit: 50 } });
    expect(query.status).toBe(200);
    type Sent = {
      id: string;
      text: string;
      attachments?: Array<{
        type?: string;
        asset_url?: string;
        image_url?: string;
        thumb_url?: string;
        title?: string;
        duration?: number;
        waveform_data?: number[];
        og_scrape_url?: string;
      }>;
    };
    const messages = (query.body as { messages: Sent[] }).messages;
    const ours = messages.filter(
      (m) =>
        [first, second].some(
          (s) => m.text === s.texts.photo || m.text === s.texts.pdf || m.text === s.texts.link,
        ) ||
        m.id === first.voiceId ||
        m.id === second.voiceId,
    );
    expect(ours).toHaveLength(8);
    for (const round of [first, second]) {
      const photoMessage = ours.find((m) => m.text === round.texts.photo)!;
      expect(photoMessage.attachments).toMatchObject([{ type: 'image' }]);
      const pdfMessage = ours.find((m) => m.text === round.texts.pdf)!;
      expect(pdfMessage.attachments).toMatchObject([{ type: 'file', title: round.pdfName }]);
      const voiceMessage = ours.find((m) => m.id === round.voiceId)!;
      expect(voiceMessage.attachments).toMatchObject([{ type: 'voiceRecording' }]);
      expect(voiceMessage.attachments![0]!.waveform_data).toHaveLength(100);
      expect(voiceMessage.attachments![0]!.duration).toBeGreaterThan(1.5);
      const linkMessage = ours.find((m) => m.text === round.texts.link)!;
      expect(linkMessage.attachments?.[0]?.og_scrape_url).toContain('/notice/');
    }
    const fileUrls = ours.flatMap((m) =>
      (m.attachments ?? []).flatMap((a) => [a.asset_url, a.image_url, a.thumb_url]),
    );
    const chatFiles = [...new Set(fileUrls.filter((u): u is string => !!u && u.includes('/chat/files/')))];
    // Per round: the photo and its thumbnail, the PDF, the voice file.
    expect(chatFiles.length).toBeGreaterThanOrEqual(6);
    process.stdout.write(
      `[e2e] chat-files: ${chatFiles.length} file URLs checked, ${imagesSeen} originals opened in the carousel\n`,
    );

    // Members read every file; the photo has lost its EXIF (camera and GPS position).
    for (const url of chatFiles) expect([url, (await noah.chat.getFile(url)).status]).toEqual([url, 200]);
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    for (const round of [first, second]) {
      const original = ours.find((m) => m.text === round.texts.photo)!.attachments![0]!.image_url!;
      const got = await noah.chat.getFile(original);
      const meta = await sharp(got.bytes).metadata();
      expect(meta.width).toBe(640);
      expect(meta.exif).toBeUndefined();
      expect(got.bytes.includes(Buffer.from('E2ECam'))).toBe(false);
      const voiceUrl = ours.find((m) => m.id === round.voiceId)!.attachments![0]!.asset_url!;
      const voiceFile = await noah.chat.getFile(voiceUrl);
      expect([...voiceFile.bytes.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]); // WebM (EBML)
    }

    // An outsider (a chat user who is in no chat of the case plan) gets nothing.
    const outsiderId = `outsider-${crypto.randomUUID().slice(0, 8)}`;
    const serverSide = caller(server.url, apiKey, '', await mint({ server: true }));
    const upsert = await serverSide.call('POST', '/users', {
      users: { [outsiderId]: { id: outsiderId, name: 'Olive Outsider' } },
    });
    expect([200, 201]).toContain(upsert.status);
    const outsider = caller(server.url, apiKey, outsiderId, await mint({ user_id: outsiderId }));
    for (const url of chatFiles) {
      expect([url, (await outsider.getFile(url)).status]).toEqual([url, expect.toBeOneOf([403, 404])]);
    }

    // Gary (the mentor) reads them while he is on the plan; removed from it (and so from its chats), he cannot.
    const gary = await demoUser(server.url, apiKey, DEMO.gary.email);
    for (const url of chatFiles) expect([url, (await gary.chat.getFile(url)).status]).toEqual([url, 200]);
    const admin = await demoUser(server.url, apiKey, DEMO.admin.email);
    const removed = await admin.callable('caseplans-removeUser', {
      caseplanId: demoId('caseplan:bennett'),
      userId: gary.uid,
    });
    expect(removed.status).toBe(200);
    const members = await noah.chat.call('POST', `/channels/${type}/${id}/query`, { state: true });
    const memberIds = ((members.body as { members?: Array<{ user_id: string }> }).members ?? []).map(
      (m) => m.user_id,
    );
    expect(memberIds).not.toContain(gary.uid);
    for (const url of chatFiles) {
      expect([url, (await gary.chat.getFile(url)).status]).toEqual([url, expect.toBeOneOf([403, 404])]);
    }

    expect(pageProblems(maria)).toEqual([]);
    expect(pageProblems(chloe)).toEqual([]);
  });
});
