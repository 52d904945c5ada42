import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../packages/server/test/helpers/server.js';
import { checkPage, createAccount, uniqueEmail, waitForApp } from './support/accounts.js';
import { launchBrowser, openUserPage, pageProblems, type UserPage } from './support/browser.js';
import { submitLogin } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';
import { linkTo, startSmtp, type SmtpCatcher } from './support/smtp.js';

const PASSWORD = 'limits-password-1';

/**
 * Sign-in at its edges in real Chromium: the per-address rate limit as a toast, an expired magic link, the
 * Norwegian interface with its English fallback, and mail in the profile's language. The server runs on
 * PostgreSQL here (not the default PGlite, which is single-process), so the test can age a link in its database.
 */
describe('auth limits, expiry and languages in real Chromium', () => {
  let smtp: SmtpCatcher;
  let server: RunningServer;
  let browser: Browser;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: pg.Client;
  const users: UserPage[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    database = await createTestDatabase();
    [server, browser] = await Promise.all([
      startServer({ env: { SMTP_URL: smtp.url, DATABASE_URL: database.url } }),
      launchBrowser(),
    ]);
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  });

  afterAll(async () => {
    for (const user of users) await user.context.close().catch(() => undefined);
    await browser?.close();
    await db?.end();
    await server?.stop();
    await database?.drop();
    await smtp?.close();
  });

  async function open(): Promise<UserPage> {
    const opened = await openUserPage(browser, server.url);
    users.push(opened);
    return opened;
  }

  it('shows a toast, not a form error, once this IP made too many wrong sign-ins for the account (429)', async () => {
    const email = uniqueEmail('guesser');
    await createAccount(server.url, email, PASSWORD, 'Gus Guesser');
    // Ten wrong passwords for the account from this IP (the limit is per account and IP together; from other IPs
    // the owner still signs in: packages/server/test/auth-lockout.test.ts), from another device.
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${server.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: `wrong-${i}-password` }),
      });
      expect(res.status).toBe(401);
    }
    const user = await open();
    const { page } = user;
    await page.goto('/');
    // Even the right password is refused now from this IP: the pair is locked for the window.
    await submitLogin(page, email, PASSWORD);
    const toast = page.locator('.toast').getByText('Too many attempts. Wait a while, then try again.');
    await toast.waitFor();
    await checkPage(page, 'auth-rate-limited');
    expect(await page.locator('.form-error').count()).toBe(0);
    expect(page.url()).toBe(`${server.url}/`);
    expect(pageProblems(user, [/^429 POST \/api\/auth\/sign-in\/email$/])).toEqual([]);
  });

  it('refuses an expired magic link and says so', async () => {
    const email = uniqueEmail('late');
    await createAccount(server.url, email, PASSWORD, 'Lars Late');
    const user = await open();
    const { page } = user;
    const since = smtp.count();
    await page.goto('/');
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByText(`If ${email} can sign in, a link is on its way.`).waitFor();
    const link = linkTo(await smtp.waitFor(email, { subject: /sign-in link/, since }), '/_action');
    // Sixteen minutes later, as far as the server can tell (links live 15 minutes).
    const aged = await db.query(
      `UPDATE verification SET "expiresAt" = now() - interval '1 minute' WHERE value LIKE $1`,
      [`%${email}%`],
    );
    expect(aged.rowCount).toBe(1);
    await page.goto(link.href);
    await page
      .getByRole('alert')
      .getByText('This sign-in link is invalid, used or expired. Ask for a new one.')
      .waitFor();
    await checkPage(page, 'auth-magic-expired');
    expect(page.url()).not.toContain('/app');
    expect(pageProblems(user)).toEqual([]);
  });

  it('speaks Norwegian when chosen, falling back to English for a text not translated', async () => {
    const user = await open();
    const { page } = user;
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in to Caseroom' }).waitFor();
    await page.getByLabel('Language').selectOption('nb');
    await page.getByRole('heading', { name: 'Logg inn i Caseroom' }).waitFor();
    expect(await page.getByLabel('E-post').count()).toBe(1);
    expect(await page.getByLabel('Passord').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Logg inn', exact: true }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('nb');
    // The magic-link page: its title is translated, its introduction is not (English, the fallback).
    await page.getByRole('button', { name: 'Send meg en innloggingslenke' }).click();
    await page.getByRole('heading', { name: 'Logg inn med en lenke' }).waitFor();
    await page
      .getByText('We will e-mail you a link that signs you in. It works once, for 15 minutes.')
      .waitFor();
    await checkPage(page, 'auth-norwegian');
    // The choice stays on this device.
    await page.reload();
    await page.getByRole('heading', { name: 'Logg inn i Caseroom' }).waitFor();
    await page.getByLabel('Språk').selectOption('en');
    await page.getByRole('heading', { name: 'Sign in to Caseroom' }).waitFor();
    expect(pageProblems(user)).toEqual([]);
  });

  it('writes the magic-link mail in the profile language (nb), whatever the browser asks for', async () => {
    const email = uniqueEmail('nora');
    await createAccount(server.url, email, PASSWORD, 'Nora Nordmann');
    const user = await open();
    const { page } = user;
    await page.goto('/');
    await submitLogin(page, email, PASSWORD);
    await waitForApp(page);
    await page.goto('/app/profile');
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
    await page.getByLabel('Language').selectOption('nb');
    await page.getByRole('heading', { name: 'Profilen din' }).waitFor();
    await page.getByRole('button', { name: 'Lagre' }).click();
    await expect
      .poll(async () => {
        const { rows } = await db.query<{ language: string | null }>(
          `SELECT p.language FROM profiles p JOIN "user" u ON u.id = p.id WHERE u.email = $1`,
          [email],
        );
        return rows[0]?.language;
      })
      .toBe('nb');

    // Asked for from another device whose browser prefers English: the profile decides.
    const since = smtp.count();
    const sent = await fetch(`${server.url}/api/auth/sign-in/magic-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en-US,en;q=0.9' },
      body: JSON.stringify({ email }),
    });
    expect(sent.status).toBe(200);
    const mail = await smtp.waitFor(email, { since });
    expect(mail.subject).toBe('Innloggingslenken din for Caseroom');
    expect(mail.text).toContain('Åpne lenken nedenfor for å logge inn i Caseroom.');
    expect(mail.text).toContain('Lenken virker én gang og utløper om 15 minutter.');
    expect(mail.html).toContain('Logg inn i Caseroom');
    expect(linkTo(mail, '/_action').origin).toBe(server.url);
    expect(pageProblems(user)).toEqual([]);
  });
});
