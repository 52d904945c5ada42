import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, createAccount, meIn, uniqueEmail, waitForApp } from './support/accounts.js';
import { launchBrowser, openUserPage, pageProblems, type UserPage } from './support/browser.js';
import { submitLogin } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';
import { linkTo, startSmtp, type SmtpCatcher } from './support/smtp.js';

const PASSWORD = 'first-password-1';
/** A 1x1 PNG, for the profile photo upload. */
const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/**
 * Sign-up with verification, magic link and password reset in real Chromium, the mails going through a real SMTP
 * server on loopback that the test reads.
 */
describe('auth by e-mail in real Chromium', () => {
  let smtp: SmtpCatcher;
  let server: RunningServer;
  let browser: Browser;
  const users: UserPage[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    [server, browser] = await Promise.all([startServer({ env: { SMTP_URL: smtp.url } }), launchBrowser()]);
  });

  afterAll(async () => {
    for (const user of users) await user.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  async function open(): Promise<UserPage> {
    const opened = await openUserPage(browser, server.url);
    users.push(opened);
    return opened;
  }

  it('signs up a new user in the UI, who confirms the address from the mail', async () => {
    const user = await open();
    const { page } = user;
    const email = uniqueEmail('newcomer');
    const since = smtp.count();
    await page.goto('/');
    await page.getByRole('button', { name: 'New to Caseroom? Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your Caseroom account' }).waitFor();
    await checkPage(page, 'auth-sign-up');
    await page.getByLabel('Your name').fill('Nina Newcomer');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await waitForApp(page);
    expect(await meIn(page)).toMatchObject({ status: 200, email, emailVerified: false });

    // Until the address is confirmed, the app says so and can send the link again.
    const notice = page.getByRole('region', { name: 'E-mail confirmation' });
    await notice.getByText('Please confirm your e-mail address').waitFor();
    await checkPage(page, 'auth-verify-notice');
    await notice.getByRole('button', { name: 'Send the link again' }).click();
    await page.getByText('A new confirmation link is on its way.').waitFor();

    const mail = await smtp.waitFor(email, { subject: /Confirm your e-mail address/, since });
    expect(mail.html).toContain('Confirm e-mail address');
    const link = linkTo(mail, '/auth/verify');
    expect(link.origin).toBe(server.url);
    await page.goto(link.href);
    await page.getByText('Your e-mail address is confirmed.').waitFor();
    await checkPage(page, 'auth-verified');
    await page.getByRole('link', { name: 'Continue to Caseroom' }).click();
    await waitForApp(page);
    expect(await meIn(page)).toMatchObject({ status: 200, email, emailVerified: true });
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    expect(await notice.count()).toBe(0);

    // The header links to the profile, where the name is edited.
    await page.getByRole('link', { name: 'Nina Newcomer' }).click();
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
    await checkPage(page, 'auth-profile');
    await page.getByLabel('Name', { exact: true }).fill('Nina N. Newcomer');
    await page.getByLabel('Time zone').selectOption('Europe/Oslo');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Your profile is saved.').waitFor();
    await page.getByRole('link', { name: 'Nina N. Newcomer' }).waitFor();
    await page.reload();
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Europe/Oslo');
    // A photo: uploaded, resized by the server, shown on the profile and in the header.
    await page.getByLabel('Photo').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: Buffer.from(ONE_PIXEL_PNG, 'base64'),
    });
    await page.locator('.profile-photo img').waitFor();
    expect(
      await page.locator('.app-header img.avatar').evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBe(256);
    expect(pageProblems(user)).toEqual([]);
  });

  it('signs in with a magic link: same device, honouring ?state=, then another device; a used link fails', async () => {
    const email = uniqueEmail('magic');
    await createAccount(server.url, email, PASSWORD, 'Mona Magic');

    // Asked for on this device, from a page that wants to go to the profile afterwards.
    const here = await open();
    let since = smtp.count();
    await here.page.goto(`/?redirectTo=${encodeURIComponent('/app/profile')}`);
    await here.page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await here.page.getByLabel('E-mail').fill(email);
    await checkPage(here.page, 'auth-magic-request');
    await here.page.getByRole('button', { name: 'Send me a link' }).click();
    await here.page.getByText(`If ${email} can sign in, a link is on its way.`).waitFor();
    expect(await here.page.evaluate(() => localStorage.getItem('magicLinkEmail'))).toBe(email);
    const first = linkTo(await smtp.waitFor(email, { subject: /sign-in link/, since }), '/_action');
    expect(first.searchParams.get('state')).toBe('/app/profile');
    await here.page.goto(first.href);
    await waitForApp(here.page, '/app/profile');
    await here.page.getByRole('heading', { name: 'Your profile' }).waitFor();
    expect(await meIn(here.page)).toMatchObject({ status: 200, email });

    // A second link, opened on another device (no magicLinkEmail there): the address is asked for.
    since = smtp.count();
    await here.page.getByRole('button', { name: 'Log out' }).click();
    await here.page.waitForURL((url) => url.pathname === '/');
    await here.page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await here.page.getByLabel('E-mail').fill(email);
    await here.page.getByRole('button', { name: 'Send me a link' }).click();
    const second = linkTo(await smtp.waitFor(email, { subject: /sign-in link/, since }), '/_action');
    expect(second.searchParams.get('state')).toBe('/app');
    const there = await open();
    await there.page.goto(second.href);
    await there.page.getByRole('heading', { name: 'Confirm your e-mail' }).waitFor();
    await checkPage(there.page, 'auth-magic-confirm');
    await there.page.getByLabel('E-mail').fill(email);
    await there.page.getByRole('button', { name: 'Sign in' }).click();
    await waitForApp(there.page);
    expect(await meIn(there.page)).toMatchObject({ status: 200, email });

    // The first link again, on a third device: used up, and the page says so.
    const third = await open();
    await third.page.goto(first.href);
    await third.page.getByLabel('E-mail').fill(email);
    await third.page.getByRole('button', { name: 'Sign in' }).click();
    await third.page
      .getByRole('alert')
      .getByText('This sign-in link is invalid, used or expired. Ask for a new one.')
      .waitFor();
    await checkPage(third.page, 'auth-magic-used');
    expect(await meIn(third.page)).toMatchObject({ status: 401 });
    expect(pageProblems(here)).toEqual([]);
    expect(pageProblems(there)).toEqual([]);
  });

  it('resets a forgotten password: mail, code checked, new password works and the old one fails', async () => {
    const email = uniqueEmail('forgetful');
    await createAccount(server.url, email, PASSWORD, 'Fred Forgetful');
    const user = await open();
    const { page } = user;
    const since = smtp.count();
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(email);
    await checkPage(page, 'auth-forgot');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(`If an account exists for ${email}, a reset link is on its way.`).waitFor();

    const link = linkTo(
      await smtp.waitFor(email, { subject: /Reset your Caseroom password/, since }),
      '/auth/reset',
    );
    expect(link.searchParams.get('token')?.length).toBeGreaterThanOrEqual(22);
    await page.goto(link.href);
    // The code was checked before the form is shown: it names the account.
    await page.getByText(`For ${email}`).waitFor();
    await checkPage(page, 'auth-reset');
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByText('The password must be at least 8 characters long.').waitFor();
    await page.getByLabel('New password').fill('second-password-2');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByText('Your password has been changed. Sign in with it now.').waitFor();
    await checkPage(page, 'auth-reset-done');

    // The link is used up.
    await page.goto(link.href);
    await page.getByText('This reset link is invalid, used or expired. Ask for a new one.').waitFor();

    await page.goto('/');
    await submitLogin(page, email, PASSWORD);
    await page.getByRole('alert').getByText('The e-mail or password is not correct.').waitFor();
    await submitLogin(page, email, 'second-password-2');
    await waitForApp(page);
    expect(
      pageProblems(user, [
        /^401 POST \/api\/auth\/sign-in\/email$/,
        /^400 POST \/api\/password-reset\/verify$/,
      ]),
    ).toEqual([]);
  });

  it('shows the error of a wrong password, and logout returns to the login page', async () => {
    const email = uniqueEmail('typo');
    await createAccount(server.url, email, PASSWORD, 'Tina Typo');
    const user = await open();
    const { page } = user;
    const config = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/config');
    await page.goto('/');
    await config;
    // No provider is configured on this server: no social buttons.
    expect(await page.getByRole('button', { name: / with (Google|Microsoft|Apple)$/ }).count()).toBe(0);
    await checkPage(page, 'auth-sign-in');
    await submitLogin(page, email, 'not-the-password');
    const error = page.getByRole('alert').getByText('The e-mail or password is not correct.');
    await error.waitFor();
    expect(page.url()).toBe(`${server.url}/`);
    await checkPage(page, 'auth-sign-in-error');

    await submitLogin(page, email, PASSWORD);
    await waitForApp(page);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.search === '');
    await page.getByText('You have signed out.').waitFor();
    expect(await meIn(page)).toMatchObject({ status: 401 });
    // The wrong password, and the probe just above.
    expect(pageProblems(user, [/^401 POST \/api\/auth\/sign-in\/email$/, /^401 GET \/api\/me$/])).toEqual([]);
  });

  it('shows a broken sign-in answer as a toast with the product-spec §8 text', async () => {
    const email = uniqueEmail('broken');
    await createAccount(server.url, email, PASSWORD, 'Bea Broken');
    const user = await open();
    const { page } = user;
    // The answer lost its user on the way (a proxy, a bug): not a wrong password, a fault.
    await page.route('**/api/auth/sign-in/email', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"token":"x"}' }),
    );
    await page.goto('/');
    await submitLogin(page, email, PASSWORD);
    const toast = page.locator('.toast').getByText('Something went wrong: User not found in credentials');
    await toast.waitFor();
    await checkPage(page, 'auth-fault-toast');
    expect(await page.locator('.form-error').count()).toBe(0);
    expect(page.url()).toBe(`${server.url}/`);
    expect(pageProblems(user)).toEqual([]);
  });
});
