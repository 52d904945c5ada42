import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, screenshot, type UserPage } from './support/browser.js';
import { DEMO, openChannel, signIn } from './support/caseroom.js';
import { REPO_ROOT, startServer, type RunningServer } from './support/server.js';

/**
 * The main screens at desktop and phone width, as a person sees them: each is checked with axe (no serious or
 * critical violation) and for horizontal overflow, and photographed. `UPDATE_SCREENSHOTS=1` writes the pictures
 * to `docs/screenshots/` (linked from the README); otherwise they go to `test-results/` only.
 */
const WIDTHS = [
  { name: '1280', viewport: { width: 1280, height: 800 } },
  { name: '375', viewport: { width: 375, height: 740 } },
] as const;
const GROUP = 'Bennett family plan';
const DOCS_DIR = path.join(REPO_ROOT, 'docs', 'screenshots');

async function capture(page: Page, name: string): Promise<void> {
  // Let lazy routes, images and fonts settle before the picture.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  expect(await seriousA11yViolations(page), `axe on ${name}`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `horizontal overflow on ${name}`).toBeLessThanOrEqual(0);
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    await fs.promises.mkdir(DOCS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(DOCS_DIR, `${name}.png`) });
  } else {
    await screenshot(page, `screens-${name}`);
  }
}

describe('main screens at 1280 px and 375 px in real Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const users: UserPage[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    for (const u of users) await u.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  for (const { name, viewport } of WIDTHS) {
    it(`staff screens at ${name} px`, async () => {
      const user = await openUserPage(browser, server.url, { viewport });
      users.push(user);
      const { page } = user;
      await page.goto('/');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await capture(page, `login-${name}`);

      await signIn(page, DEMO.maria.email);
      await page.goto('/app/caseplans');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await capture(page, `caseplans-home-${name}`);

      await page.getByRole('main').getByRole('link', { name: GROUP, exact: true }).first().click();
      await page.getByRole('heading', { level: 1, name: GROUP }).waitFor();
      await capture(page, `caseplan-${name}`);

      await page.goto('/app');
      await openChannel(page, GROUP);
      await capture(page, `chat-${name}`);
    });

    it(`organization admin screens at ${name} px`, async () => {
      const user = await openUserPage(browser, server.url, { viewport });
      users.push(user);
      const { page } = user;
      await signIn(page, DEMO.admin.email);
      await page.goto('/app/organizations');
      await page.getByRole('heading', { level: 1, name: /Organization/ }).waitFor();
      await capture(page, `organization-${name}`);
    });

    it(`client screens at ${name} px`, async () => {
      const user = await openUserPage(browser, server.url, { viewport });
      users.push(user);
      const { page } = user;
      await signIn(page, DEMO.chloe.email);
      await page.goto('/app/caseplans');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.getByRole('main').getByRole('link', { name: GROUP, exact: true }).first().click();
      await page.getByRole('heading', { level: 1, name: GROUP }).waitFor();
      await capture(page, `client-caseplan-${name}`);
    });
  }
});
