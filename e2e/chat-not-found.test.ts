import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { DEMO, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

const LIVE = { timeout: 10_000 };

/**
 * Issue 13 §2: chats exist only through the product. Opening `/app/chat/messaging/<unknown id>` shows "Chat not
 * found" with a way back, and creates nothing (opening it again is still "not found", and no chat appears).
 */
describe('an unknown chat address', () => {
  let server: RunningServer;
  let browser: Browser;
  let user: UserPage | undefined;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await user?.context.close();
    await browser?.close();
    await server?.stop();
  });

  it('shows "Chat not found" with a way back and creates no chat', async () => {
    user = await openUserPage(browser, server.url);
    const { page } = user;
    await signIn(page, DEMO.chloe.email);
    const id = `unknown-${crypto.randomUUID().slice(0, 8)}`;
    const chats = page.getByRole('navigation', { name: 'Chats' });
    await chats.getByRole('link').first().waitFor(LIVE);
    const before = await chats.getByRole('link').count();

    await page.goto(`/app/chat/messaging/${id}`);
    await page.getByRole('heading', { level: 2, name: 'Chat not found' }).waitFor(LIVE);
    await page.getByText('This chat does not exist, or you are not one of its members.').waitFor();
    expect(await page.getByRole('textbox', { name: 'Message' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'chat-not-found');

    // Nothing was created: the address is still unknown, and the chat list is as it was.
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Chat not found' }).waitFor(LIVE);
    await page.getByRole('link', { name: 'Back to your chats' }).click();
    await page.waitForURL((url) => url.pathname === '/app', LIVE);
    await page.getByText('Please select a chat, or start a new chat.').waitFor(LIVE);
    await chats.getByRole('link').first().waitFor(LIVE);
    expect(await chats.getByRole('link').count()).toBe(before);
    expect(await chats.locator(`a[href$="${id}"]`).count()).toBe(0);

    // The refused watch (403: not a chat of hers, nor hers to create) is the only failed answer.
    expect(pageProblems(user, [/\/chat\/channels\/messaging\/unknown-[^/]+\/query/])).toEqual([]);
  });
});
