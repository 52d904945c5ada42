import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, createAccount, meIn, uniqueEmail, waitForApp } from './support/accounts.js';
import { launchBrowser, openUserPage, pageProblems, type UserPage } from './support/browser.js';
import {
  SOCIAL_PROVIDERS,
  startOidcProvider,
  type SocialProvider,
  type TestOidcProvider,
} from './support/oidc.js';
import { freePort, startServer, type RunningServer } from './support/server.js';

const LABEL: Record<SocialProvider, string> = { google: 'Google', microsoft: 'Microsoft', apple: 'Apple' };

/**
 * Google, Microsoft and Apple sign-in in real Chromium against a real OpenID provider on loopback (another site:
 * `localhost` while the app is on 127.0.0.1), one client per provider, PKCE required.
 */
describe('social sign-in in real Chromium', () => {
  let oidc: TestOidcProvider;
  let server: RunningServer;
  let browser: Browser;
  const users: UserPage[] = [];

  beforeAll(async () => {
    const port = await freePort();
    oidc = await startOidcProvider(`http://127.0.0.1:${port}`);
    [server, browser] = await Promise.all([startServer({ port, env: oidc.env() }), launchBrowser()]);
  });

  afterAll(async () => {
    for (const user of users) await user.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
    await oidc?.close();
  });

  async function open(): Promise<UserPage> {
    const opened = await openUserPage(browser, server.url);
    users.push(opened);
    return opened;
  }

  /** At the provider's sign-in page: says who the user is there. */
  async function signInAtProvider(page: Page, email: string): Promise<void> {
    await page.waitForURL((url) => url.origin === oidc.issuer);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  it('shows a button per configured provider, in order, on sign-in and sign-up', async () => {
    const user = await open();
    const { page } = user;
    await page.goto('/');
    const buttons = page.getByRole('button', { name: /^Sign in with / });
    await buttons.first().waitFor();
    expect(await buttons.allInnerTexts()).toEqual([
      'Sign in with Google',
      'Sign in with Microsoft',
      'Sign in with Apple',
    ]);
    await checkPage(page, 'auth-social-sign-in');
    await page.getByRole('button', { name: 'New to Caseroom? Create an account' }).click();
    await page.getByRole('button', { name: 'Sign up with Apple' }).waitFor();
    expect(await page.getByRole('button', { name: /^Sign up with / }).count()).toBe(3);
    expect(pageProblems(user)).toEqual([]);
  });

  for (const id of SOCIAL_PROVIDERS) {
    it(`${LABEL[id]}: signs up with the button, then signs in with it on another device`, async () => {
      const email = uniqueEmail(`social-${id}`);
      const before = oidc.authorizations.length;

      const first = await open();
      await first.page.goto('/');
      await first.page.getByRole('button', { name: 'New to Caseroom? Create an account' }).click();
      await first.page.getByRole('button', { name: `Sign up with ${LABEL[id]}` }).click();
      await signInAtProvider(first.page, email);
      await waitForApp(first.page);
      expect(await meIn(first.page)).toMatchObject({ status: 200, email, emailVerified: true });

      // Another device: the sign-in button finds the account made above. A social sign-in less than 1,000 ms
      // after the account was made counts as making it (product-spec §4), so the other device comes later.
      const made = Date.now();
      const second = await open();
      await second.page.waitForTimeout(Math.max(0, made + 1100 - Date.now()));
      await second.page.goto(`/?redirectTo=${encodeURIComponent('/app/profile')}`);
      await second.page.getByRole('button', { name: `Sign in with ${LABEL[id]}` }).click();
      await signInAtProvider(second.page, email);
      await waitForApp(second.page, '/app/profile');
      expect(await meIn(second.page)).toMatchObject({ status: 200, email });

      // Both trips used PKCE (S256), state and an ID-token nonce; Apple answers by form post.
      const trips = oidc.authorizations.slice(before);
      expect(trips).toHaveLength(2);
      for (const trip of trips) {
        expect(trip).toMatchObject({
          clientId: `caseroom-${id}`,
          codeChallengeMethod: 'S256',
          hasState: true,
          hasNonce: true,
        });
        expect(trip.responseMode).toBe(id === 'apple' ? 'form_post' : undefined);
      }
      expect(pageProblems(first)).toEqual([]);
      expect(pageProblems(second)).toEqual([]);
    });
  }

  it('refuses a sign-in button for an unknown account: toast, back at sign-in, account deleted', async () => {
    const email = uniqueEmail('stranger');
    const user = await open();
    const { page } = user;
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
    await signInAtProvider(page, email);
    await page.getByRole('alert').getByText(`No account found for ${email}`).waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await checkPage(page, 'auth-social-refused');
    expect(await meIn(page)).toMatchObject({ status: 401 });
    // The account made on the way back is gone: the address is free for a sign-up.
    await createAccount(server.url, email, 'a-password-1', 'Stranger');
    expect(
      pageProblems(user, [/^404 POST \/api\/functions\/users-completeSignIn$/, /^401 GET \/api\/me$/]),
    ).toEqual([]);
  });

  it('links Google to a password account only once its address is confirmed', async () => {
    const email = uniqueEmail('linked');
    await createAccount(server.url, email, 'a-password-1', 'Lin Linked');
    const user = await open();
    const { page } = user;

    // Unconfirmed: whoever made the password account may not be the address's owner, so no linking.
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await signInAtProvider(page, email);
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('socialError') === '1');
    await page.getByRole('alert').getByText('An account with this e-mail address already exists.').waitFor();
    // About the provider's answer, not this form's fields.
    expect(await page.getByLabel('E-mail').getAttribute('aria-invalid')).toBeNull();
    await checkPage(page, 'auth-social-not-linked');
    expect(await meIn(page)).toMatchObject({ status: 401 });

    // Confirmed (the verification mail is in the dev outbox of this server): Google signs in to it.
    await confirmAddress(email);
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await waitForApp(page); // the provider remembers the user: no sign-in page this time
    expect(await meIn(page)).toMatchObject({ status: 200, email });
    await page.getByRole('link', { name: 'Lin Linked' }).waitFor();
    expect(pageProblems(user, [/^401 GET \/api\/me$/])).toEqual([]);
  });

  /** Opens the verification link of the dev outbox's newest mail to `email`. */
  async function confirmAddress(email: string): Promise<void> {
    const mails = (await (await fetch(`${server.url}/dev/mail.json`)).json()) as {
      to: string;
      text: string;
    }[];
    const link = /https?:\/\/\S+\/auth\/verify\?token=([\w.-]+)/.exec(
      mails.find((m) => m.to === email)?.text ?? '',
    );
    if (!link) throw new Error(`no verification mail to ${email}`);
    const res = await fetch(`${server.url}/api/auth/verify-email?token=${link[1]}`);
    expect(res.status).toBe(200);
  }
});
