import crypto from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { composer, DEMO, openChannel, signIn } from './support/caseroom.js';
import { chatAs } from './support/chat-api.js';
import { startServer, type RunningServer } from './support/server.js';

/** The seeded group chat of the first case plan (all five demo users), and chloe's one-to-one chat with maria. */
const GROUP = 'Bennett family plan';
const DIRECT_FOR_CHLOE = DEMO.maria.name;
const LIVE = { timeout: 15_000 };
const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 375, height: 740 } },
] as const;

function cidOf(page: Page): string {
  const [, , , type, id] = new URL(page.url()).pathname.split('/');
  return `${decodeURIComponent(type ?? '')}:${decodeURIComponent(id ?? '')}`;
}

/** The open channel's message list (in the popup on phones). */
function messageLog(page: Page): Locator {
  return page.getByRole('log', { name: 'Messages' });
}

/** True when `target` is wholly inside the message list's visible box (not scrolled away, not under an overlay edge). */
async function inListView(page: Page, target: Locator): Promise<boolean> {
  if ((await target.count()) === 0) return false;
  const [box, log] = await Promise.all([target.first().boundingBox(), messageLog(page).boundingBox()]);
  if (!box || !log) return false;
  return box.y >= log.y - 1 && box.y + box.height <= log.y + log.height + 1 && box.height > 0;
}

/** Scrolls the virtual list's scroller by `dy` pixels (negative: up). */
async function scrollListBy(page: Page, dy: number): Promise<void> {
  await messageLog(page)
    .locator('.message-scroller')
    .evaluate((el, by) => el.scrollBy(0, by), dy);
}

/** Leaves the open chat: the popup closes on phones; on desktop another chat is opened by the caller. */
async function leaveChat(page: Page): Promise<void> {
  const close = page.getByRole('button', { name: 'Close chat' });
  if ((await close.count()) > 0) {
    await close.click();
    await page.waitForURL((url) => url.pathname === '/app');
  } else {
    await page.goto('/app');
  }
  await page.getByRole('navigation', { name: 'Chats' }).waitFor();
}

/** Opens the chat and waits until the server has it read (a later visit then has a last read message). */
async function openAndRead(page: Page, title: string): Promise<void> {
  const read = page.waitForResponse(
    (r) =>
      r.request().method() === 'POST' &&
      /\/chat\/channels\/[^/]+\/[^/]+\/read/.test(new URL(r.url()).pathname),
  );
  await openChannel(page, title);
  await read;
}

function bubble(page: Page, text: string): Locator {
  return messageLog(page).locator('article', { hasText: text });
}

describe('message list: unread line, unread notice, scroll after send, unread count in the tab title (issue 15)', () => {
  let server: RunningServer;
  let browser: Browser;
  const users: UserPage[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });

  afterEach(async (ctx) => {
    // A failed check leaves a picture of every page for the reader of the failure.
    if (ctx.task.result?.state === 'fail')
      for (const [i, u] of users.entries())
        await screenshot(u.page, `chat-scroll-failed-${i}`).catch(() => undefined);
    // Each test's people sign out with their pages: a page left open in a chat would read it for the next test's
    // page of the same person (read state is per person).
    for (const user of users.splice(0)) await user.context.close().catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function user(email: string, viewport: { width: number; height: number }): Promise<UserPage> {
    const opened = await openUserPage(browser, server.url, { viewport });
    users.push(opened);
    await signIn(opened.page, email);
    return opened;
  }

  for (const { name, viewport } of WIDTHS) {
    it(`${name}: opens at the first of 40 unread with the separator and the notice; the sent message is in view`, async () => {
      const token = crypto.randomUUID().slice(0, 6);
      // Different senders per width: each stays far below the send rate limit.
      const sender = await chatAs(server.url, name === 'desktop' ? DEMO.maria.email : DEMO.admin.email);
      const chloe = await user(DEMO.chloe.email, viewport);
      const { page } = chloe;
      // Reading the chat first gives chloe a last read message; then she leaves it.
      await openAndRead(page, GROUP);
      const cid = cidOf(page);
      await leaveChat(page);

      for (let i = 1; i <= 40; i++) await sender.send(cid, `Unread ${i} ${token}`);
      await openChannel(page, GROUP);

      // (a) It opens at the first unread: the separator and the first unread message are on screen.
      const separator = page.getByTestId('unread-separator');
      await expect.poll(() => inListView(page, separator), LIVE).toBe(true);
      await expect.poll(() => inListView(page, bubble(page, `Unread 1 ${token}`)), LIVE).toBe(true);
      expect(await inListView(page, bubble(page, `Unread 40 ${token}`))).toBe(false);
      const notice = page.locator('.unread-notice');
      const jump = notice.getByRole('button', { name: '40 unread messages · Jump' });
      await jump.waitFor(LIVE);
      await screenshot(page, `chat-scroll-unread-open-${name}`);
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Jump brings the separator back after scrolling a little away from it (still short of the newest messages,
      // so the notice stays: it goes once the newest were on screen).
      await scrollListBy(page, 400);
      await expect.poll(() => inListView(page, separator), LIVE).toBe(false);
      await jump.click();
      await expect.poll(() => inListView(page, separator), LIVE).toBe(true);
      await notice.getByRole('button', { name: 'Dismiss unread notice' }).click();
      await notice.waitFor({ state: 'detached' });
      // Dismissing the notice keeps the line where the unread messages start.
      expect(await separator.count()).toBe(1);

      // (b/c) Sending while the list sits at the unread line: the list goes to the newest, the sent message in view.
      const atLine = `Sent at the unread line ${token}`;
      await composer(page).fill(atLine);
      await composer(page).press('Enter');
      await expect.poll(() => inListView(page, bubble(page, atLine)), LIVE).toBe(true);

      // A little short of the bottom: the next send is in view too.
      await scrollListBy(page, -180);
      const shortOf = `Sent short of the bottom ${token}`;
      await composer(page).fill(shortOf);
      await composer(page).press('Enter');
      await expect.poll(() => inListView(page, bubble(page, shortOf)), LIVE).toBe(true);
      await screenshot(page, `chat-scroll-after-send-${name}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(pageProblems(chloe)).toEqual([]);
    });
  }

  it('desktop: a receiver at the bottom gets no unread notice; the sender sees "Seen by" whole under the last bubble', async () => {
    const token = crypto.randomUUID().slice(0, 6);
    const viewport = WIDTHS[0].viewport;
    const [maria, chloe] = await Promise.all([
      user(DEMO.maria.email, viewport),
      user(DEMO.chloe.email, viewport),
    ]);
    await openAndRead(chloe.page, GROUP);
    const cid = cidOf(chloe.page);
    await leaveChat(chloe.page);
    const admin = await chatAs(server.url, DEMO.admin.email);
    // Two unread: chloe opens the chat at the bottom with the separator on screen.
    await admin.send(cid, `Before ${token} 1`);
    await admin.send(cid, `Before ${token} 2`);
    await Promise.all([openChannel(chloe.page, GROUP), openChannel(maria.page, GROUP)]);
    await chloe.page.getByTestId('unread-separator').waitFor(LIVE);
    // New messages push the separator out of view while chloe reads at the bottom: no notice.
    for (let i = 1; i <= 12; i++) await admin.send(cid, `Live ${token} ${i}`);
    await expect.poll(() => inListView(chloe.page, bubble(chloe.page, `Live ${token} 12`)), LIVE).toBe(true);
    await expect
      .poll(() => inListView(chloe.page, chloe.page.getByTestId('unread-separator')), LIVE)
      .toBe(false);
    expect(await chloe.page.locator('.unread-notice').count()).toBe(0);

    // Maria writes; chloe, at the bottom, reads it; maria's "Seen by" line is wholly on screen.
    const text = `Seen ${token}`;
    await composer(maria.page).fill(text);
    await composer(maria.page).press('Enter');
    await bubble(chloe.page, text).waitFor(LIVE);
    const seen = bubble(maria.page, text).locator('.message-read-by');
    await seen.waitFor(LIVE);
    await expect.poll(() => inListView(maria.page, seen), LIVE).toBe(true);
    await screenshot(maria.page, 'chat-scroll-seen-by-desktop');
    expect(await chloe.page.locator('.unread-notice').count()).toBe(0);
    for (const u of [maria, chloe]) expect(pageProblems(u)).toEqual([]);
  });

  for (const { name, viewport } of WIDTHS) {
    it(`${name}: the tab title shows the unread count while another chat gets messages, and drops it once read`, async () => {
      const token = crypto.randomUUID().slice(0, 6);
      const chloe = await user(DEMO.chloe.email, viewport);
      const { page } = chloe;
      await openAndRead(page, DIRECT_FOR_CHLOE);
      const direct = cidOf(page);
      await leaveChat(page);
      await openChannel(page, GROUP);
      expect(await page.title()).not.toMatch(/^\(\d+\)/);

      const maria = await chatAs(server.url, DEMO.maria.email);
      for (let i = 1; i <= 3; i++) await maria.send(direct, `Title ${token} ${i}`);
      await expect.poll(() => page.title(), LIVE).toMatch(/^\(3\) /);
      await screenshot(page, `chat-scroll-title-${name}`);
      expect(await seriousA11yViolations(page)).toEqual([]);

      await leaveChat(page);
      await openChannel(page, DIRECT_FOR_CHLOE);
      await bubble(page, `Title ${token} 3`).waitFor(LIVE);
      await expect.poll(() => page.title(), LIVE).not.toMatch(/^\(\d+\)/);
      expect(pageProblems(chloe)).toEqual([]);
    });
  }
});
