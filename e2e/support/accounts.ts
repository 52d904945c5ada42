import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { seriousA11yViolations } from './axe.js';
import { screenshot } from './browser.js';

/** A fresh address per call, so tests never meet each other's accounts or per-address limits. */
export function uniqueEmail(label: string): string {
  return `${label}.${crypto.randomBytes(4).toString('hex')}@example.test`;
}

/** Creates an e-mail + password account through the API (as another device would), answering its id. */
export async function createAccount(baseUrl: string, email: string, password: string, name: string) {
  const res = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, name }),
  });
  if (res.status !== 200) throw new Error(`sign-up of ${email} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { user: { id: string } }).user.id;
}

/** What `/api/me` says in this page's session (bearer token from local storage, cookie too). */
export async function meIn(page: Page): Promise<{ status: number; email?: string; emailVerified?: boolean }> {
  return page.evaluate(async () => {
    const token = localStorage.getItem('caseroom.sessionToken');
    const res = await fetch('/api/me', token ? { headers: { Authorization: `Bearer ${token}` } } : {});
    if (!res.ok) return { status: res.status };
    const body = (await res.json()) as { email: string; emailVerified: boolean };
    return { status: res.status, email: body.email, emailVerified: body.emailVerified };
  });
}

/** Screenshot to `test-results/<name>.png`, then no serious or critical axe-core violation on the page. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect(await seriousA11yViolations(page), `axe on ${name}`).toEqual([]);
}

/** Waits until the app shell is shown for a signed-in user. */
export async function waitForApp(page: Page, pathname = '/app'): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname);
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}
