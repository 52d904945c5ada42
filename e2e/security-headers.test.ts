import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { composer, DEMO, messageItem, openChannel, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

/** A `securitypolicyviolation` event as the page reported it. */
interface Violation {
  directive: string;
  blocked: string;
  source: string;
  page: string;
}

/**
 * The app under its Content-Security-Policy in real Chromium: sign-in, a case plan, a chat, sending a message,
 * the emoji picker and the profile page, with no violation reported and no console error.
 */
describe('Content-Security-Policy in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let user: UserPage;
  const violations: Violation[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    user = await openUserPage(browser, server.url);
    // Every document of the page reports its violations to the test (the listener is installed on each load).
    await user.page.exposeFunction('reportCspViolation', (v: Violation) => violations.push(v));
    await user.page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const report = (window as unknown as { reportCspViolation(v: unknown): void }).reportCspViolation;
        report({
          directive: e.effectiveDirective,
          blocked: e.blockedURI,
          source: `${e.sourceFile}:${e.lineNumber}`,
          page: location.pathname,
        });
      });
    });
  });

  afterAll(async () => {
    await user?.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  it('signs in, opens a case plan and a chat, sends a message, with no violation', async () => {
    try {
      await walkThroughTheApp();
    } catch (err) {
      await screenshot(user.page, 'csp-failure');
      throw new Error(
        `${String(err)}\nviolations: ${JSON.stringify(violations)}\nproblems: ${pageProblems(user).join('\n')}`,
      );
    }
    expect(violations).toEqual([]);
    expect(pageProblems(user)).toEqual([]);
  });

  async function walkThroughTheApp() {
    const { page } = user;
    const first = await page.goto('/');
    const csp = first?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'sha256-/);
    expect(first?.headers()['x-content-type-options']).toBe('nosniff');
    await screenshot(page, 'csp-login');

    await signIn(page, DEMO.maria.email);
    await page.getByRole('link', { name: 'Case plans' }).click();
    await page.getByRole('heading', { level: 1, name: 'Case plans' }).waitFor();
    await page
      .getByRole('list', { name: 'All case plans' })
      .getByRole('link', { name: 'Bennett family plan' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Bennett family plan' }).waitFor();
    await screenshot(page, 'csp-caseplan');

    await openChannel(page, DEMO.chloe.name);
    await messageItem(page, 'Much better, thanks Maria.').waitFor();
    const text = `Under CSP ${crypto.randomUUID()}`;
    await composer(page).fill(text);
    await composer(page).press('Enter');
    await page.locator('[data-status="received"]', { hasText: text }).waitFor();

    // The emoji picker is a web component with its own stylesheet in a shadow root.
    await page.getByRole('button', { name: 'Emoji' }).click();
    const picker = page.getByRole('dialog', { name: 'Emoji' }).locator('em-emoji-picker');
    await picker.waitFor();
    await page.waitForFunction(() => {
      const root = document.querySelector('em-emoji-picker')?.shadowRoot;
      return !!root?.querySelector('button[aria-label]');
    });
    await screenshot(page, 'csp-emoji-picker');
    // Picking works too: the emoji lands in the composer and goes out with the next message.
    await page.locator('em-emoji-picker button[aria-label="😀"]').first().click();
    await expect.poll(() => composer(page).inputValue()).toContain('😀');
    await composer(page).press('Enter');
    await page.locator('[data-status="received"]', { hasText: '😀' }).waitFor();
    await screenshot(page, 'csp-chat');

    await page.goto('/app/profile');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await screenshot(page, 'csp-profile');
  }
});
