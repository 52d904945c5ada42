import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { composer, DEMO, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

const LIVE = { timeout: 10_000 };

/** Start a new chat from contacts (product-spec §5) in the real UI, and the other person sees it live. */
describe('start a new chat from contacts', () => {
  let server: RunningServer;
  let browser: Browser;
  const users: UserPage[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    for (const user of users) await user.context.close();
    await browser?.close();
    await server?.stop();
  });

  async function open(email: string): Promise<UserPage> {
    const user = await openUserPage(browser, server.url);
    users.push(user);
    await signIn(user.page, email);
    return user;
  }

  it('noah picks gary from his contacts, the chat opens, and gary receives the first message', async () => {
    const noah = await open(DEMO.noah.email);
    const { page } = noah;
    await page.getByText('Please select a chat, or start a new chat.').waitFor();
    await page.getByRole('button', { name: 'Start a new chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start a new chat' });
    await dialog.getByLabel('Find a contact').fill('gary');
    // Only matching contacts, never yourself.
    expect(await dialog.getByRole('checkbox').count()).toBe(1);
    await dialog.getByRole('checkbox', { name: /Gary/ }).check();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'chat-start-dialog');
    await dialog.getByRole('button', { name: 'Start chat' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/app/chat/'), LIVE);
    await page.getByRole('heading', { level: 2, name: /Gary/ }).waitFor(LIVE);

    const text = `hello gary ${crypto.randomUUID().slice(0, 8)}`;
    await composer(page).fill(text);
    await composer(page).press('Enter');
    await page.locator('[data-status="received"]', { hasText: text }).first().waitFor(LIVE);

    const gary = await open(DEMO.gary.email);
    const link = gary.page
      .getByRole('navigation', { name: 'Chats' })
      .getByRole('link')
      .filter({ hasText: /Noah/ })
      .filter({ hasText: text });
    await link.first().waitFor(LIVE);
    await link.first().click();
    await gary.page.getByText(text, { exact: true }).first().waitFor(LIVE);
    await screenshot(gary.page, 'chat-start-received');

    // Starting the same chat again opens the same channel (create-or-get), not a second one.
    const firstUrl = page.url();
    await page.goto('/app');
    await page.getByRole('button', { name: 'Start a new chat' }).click();
    await dialog.getByLabel('Find a contact').fill('gary');
    await dialog.getByRole('checkbox', { name: /Gary/ }).check();
    await dialog.getByRole('button', { name: 'Start chat' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/app/chat/'), LIVE);
    expect(page.url()).toBe(firstUrl);

    expect(pageProblems(noah)).toEqual([]);
    expect(pageProblems(gary)).toEqual([]);
  });
});
