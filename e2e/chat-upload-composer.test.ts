import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { composer, DEMO, openChannel, signIn } from './support/caseroom.js';
import { dropFile, pasteFile, previews } from './support/files.js';
import { startServer, type RunningServer } from './support/server.js';

/** The seeded group chat of the first case plan (all five demo users). */
const GROUP = 'Bennett family plan';
const LIVE = { timeout: 15_000 };
/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe('composer uploads (issue 14) in real Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const users: UserPage[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    for (const user of users) await user.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  async function user(email: string, width = 1200): Promise<UserPage> {
    const opened = await openUserPage(browser, server.url, { viewport: { width, height: 800 } });
    users.push(opened);
    await signIn(opened.page, email);
    return opened;
  }

  it('a chosen file, a pasted photo and a dropped PDF upload, one is removed, the rest are sent', async () => {
    const [maria, chloe] = await Promise.all([user(DEMO.maria.email), user(DEMO.chloe.email, 375)]);
    await Promise.all([openChannel(maria.page, GROUP), openChannel(chloe.page, GROUP)]);
    const page = maria.page;

    // The file button (a hidden multiple file input behind it).
    await page.getByRole('button', { name: 'Attach files' }).waitFor();
    await page.getByTestId('attach-input').setInputFiles({
      name: 'letter.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await previews(page).getByRole('button', { name: 'Download letter.pdf' }).waitFor(LIVE);

    await pasteFile(page, PNG, 'pasted.png', 'image/png');
    await previews(page).getByRole('button', { name: 'Download pasted.png' }).waitFor(LIVE);
    await dropFile(page, PDF, 'dropped.pdf', 'application/pdf');
    await previews(page).getByRole('button', { name: 'Download dropped.pdf' }).waitFor(LIVE);
    await screenshot(page, 'chat-upload-composer-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Removing a finished upload deletes it on the server.
    const deleted = page.waitForResponse(
      (r) => r.request().method() === 'DELETE' && /\/chat\/channels\/.+\/file\?/.test(r.url()),
    );
    await previews(page).getByRole('button', { name: 'Remove dropped.pdf' }).click();
    expect((await deleted).status()).toBe(200);
    expect(await previews(page).getByRole('listitem').count()).toBe(2);

    const text = `papers ${crypto.randomUUID().slice(0, 8)}`;
    await composer(page).fill(text);
    await composer(page).press('Enter');
    await page.locator('[data-status="received"]', { hasText: text }).first().waitFor(LIVE);
    expect(await previews(page).count()).toBe(0);
    await chloe.page.locator('article', { hasText: text }).first().waitFor(LIVE);

    // The phone width: the previews scroll sideways under the input.
    await composer(chloe.page).waitFor();
    await chloe.page.getByTestId('attach-input').setInputFiles({
      name: 'phone.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await previews(chloe.page).getByRole('button', { name: 'Download phone.pdf' }).waitFor(LIVE);
    await screenshot(chloe.page, 'chat-upload-composer-phone');

    expect(pageProblems(maria)).toEqual([]);
    expect(pageProblems(chloe)).toEqual([]);
  });
});
