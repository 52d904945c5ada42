import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { composer, DEMO, messageItem, openChannel, signIn, submitLogin } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

/** The seeded group chat of the first case plan, named after it. */
const GROUP_CHANNEL = 'Bennett family plan';

type Marked = Window & { e2eMarker?: boolean };

/** How long a message may take to reach the other browser before the test fails. */
const DELIVERY_TIMEOUT = 10_000;

describe('web chat in real Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const users: UserPage[] = [];

  beforeAll(async () => {
    const started = Date.now();
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    process.stdout.write(`[e2e] server healthy and browser up in ${Date.now() - started} ms\n`);
  });

  afterAll(async () => {
    for (const user of users) await user.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  async function user(): Promise<UserPage> {
    const opened = await openUserPage(browser, server.url);
    users.push(opened);
    return opened;
  }

  it('two users see each other’s messages live, then log out', async () => {
    const [maria, chloe] = await Promise.all([user(), user()]);
    await Promise.all([signIn(maria.page, DEMO.maria.email), signIn(chloe.page, DEMO.chloe.email)]);

    await openChannel(maria.page, DEMO.chloe.name);
    await openChannel(chloe.page, DEMO.maria.name);
    // The seeded conversation is there for both.
    await messageItem(maria.page, 'Much better, thanks Maria.').waitFor();
    await messageItem(chloe.page, 'Hi Chloe, just checking in. How did the week go?').waitFor();

    // A marker on each page's window proves below that no reload happened.
    for (const { page } of [maria, chloe]) await page.evaluate(() => ((window as Marked).e2eMarker = true));

    // maria -> chloe, sent with Enter.
    const fromMaria = `From Maria ${crypto.randomUUID()}`;
    await composer(maria.page).fill(fromMaria);
    let sentAt = Date.now();
    await composer(maria.page).press('Enter');
    await messageItem(chloe.page, fromMaria).waitFor({ timeout: DELIVERY_TIMEOUT });
    const mariaToChloeMs = Date.now() - sentAt;
    expect(await composer(maria.page).inputValue()).toBe('');
    await maria.page.locator('[data-status="received"]', { hasText: fromMaria }).waitFor();
    await messageItem(chloe.page, fromMaria).getByText(DEMO.maria.name, { exact: true }).waitFor();

    // chloe -> maria, a two-line message (Shift+Enter is a new line, Enter sends).
    const token = crypto.randomUUID();
    await composer(chloe.page).pressSequentially(`From Chloe ${token}`);
    await composer(chloe.page).press('Shift+Enter');
    await composer(chloe.page).pressSequentially('second line');
    expect(await composer(chloe.page).inputValue()).toBe(`From Chloe ${token}\nsecond line`);
    sentAt = Date.now();
    await composer(chloe.page).press('Enter');
    const onMaria = maria.page.getByRole('log', { name: 'Messages' }).getByText(`From Chloe ${token}`);
    await onMaria.waitFor({ timeout: DELIVERY_TIMEOUT });
    const chloeToMariaMs = Date.now() - sentAt;
    expect(await onMaria.innerText()).toBe(`From Chloe ${token}\nsecond line`);
    // The channel list is live too: maria's preview of the chat shows chloe's newest message.
    await maria.page
      .getByRole('navigation', { name: 'Chats' })
      .getByRole('link')
      .filter({ hasText: `From Chloe ${token}` })
      .waitFor({ timeout: DELIVERY_TIMEOUT });
    // The open chat names the tab; unread messages in her other chats come first as "(N) ".
    expect(await maria.page.title()).toMatch(new RegExp(`^(\\(\\d+\\) )?${DEMO.chloe.name} · Caseroom$`));

    for (const { page } of [maria, chloe]) {
      expect(await page.evaluate(() => (window as Marked).e2eMarker)).toBe(true);
    }

    await screenshot(maria.page, 'chat-maria');
    expect(await seriousA11yViolations(maria.page)).toEqual([]);
    await screenshot(chloe.page, 'chat-chloe');
    process.stdout.write(
      `[e2e] delivery maria->chloe ${mariaToChloeMs} ms, chloe->maria ${chloeToMariaMs} ms\n`,
    );

    // Logout ends the session (the old bearer token is refused afterwards) and returns to the login page.
    const oldToken = await maria.page.evaluate(() => localStorage.getItem('caseroom.sessionToken'));
    expect(oldToken).toBeTruthy();
    await maria.page.getByRole('button', { name: 'Log out' }).click();
    await maria.page.waitForURL((url) => url.pathname === '/' && url.search === '');
    await maria.page.getByRole('button', { name: 'Sign in' }).waitFor();
    await screenshot(maria.page, 'logged-out');
    expect(await maria.page.evaluate(() => localStorage.getItem('caseroom.sessionToken'))).toBeNull();
    const afterLogout = await fetch(`${server.url}/api/me`, {
      headers: { Authorization: `Bearer ${oldToken}` },
    });
    expect(afterLogout.status).toBe(401);
    await maria.page.goto('/app');
    await maria.page.waitForURL(
      (url) => url.pathname === '/' && url.searchParams.get('redirectTo') === '/app',
    );

    expect(pageProblems(maria)).toEqual([]);
    expect(pageProblems(chloe)).toEqual([]);
  });

  it('groups the chats by the selected case plan and remembers the choice', async () => {
    const maria = await user();
    const { page } = maria;
    await signIn(page, DEMO.maria.email);
    const chats = page.getByRole('navigation', { name: 'Chats' });
    const group = (title: string) => chats.getByRole('region', { name: title, exact: true });

    // The first case plan is selected by default; both demo chats belong to it.
    await group('In Bennett family plan').getByText(GROUP_CHANNEL, { exact: true }).waitFor();
    await group('In Bennett family plan').getByText(DEMO.chloe.name, { exact: true }).waitFor();

    await page.getByLabel('Case plan', { exact: true }).selectOption({ label: 'Brooks housing plan' });
    await group('In Brooks housing plan').getByText('No chats in this case plan.').waitFor();
    await group('Other chats').getByText(GROUP_CHANNEL, { exact: true }).waitFor();
    await screenshot(page, 'caseplan-switched');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.reload();
    await group('In Brooks housing plan').waitFor();
    expect(await page.getByLabel('Case plan', { exact: true }).inputValue()).not.toBe('');
    expect(pageProblems(maria)).toEqual([]);
  });

  it('shows a failed send and sends it again on click', async () => {
    const noah = await user();
    const { page } = noah;
    await signIn(page, DEMO.noah.email);
    await openChannel(page, GROUP_CHANNEL);

    // The network drops the send: the message stays, marked failed, with a retry.
    const sendUrl = /\/chat\/channels\/messaging\/[^/]+\/message(\?|$)/;
    await page.route(sendUrl, (route) => route.abort('internetdisconnected'));
    const text = `Retry me ${crypto.randomUUID()}`;
    await composer(page).fill(text);
    await composer(page).press('Enter');
    const retry = messageItem(page, text).getByRole('button', {
      name: 'Message Failed · Click to try again',
    });
    await retry.waitFor({ timeout: DELIVERY_TIMEOUT });
    await screenshot(page, 'chat-failed-message');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.unroute(sendUrl);
    await retry.click();
    await page.locator('[data-status="received"]', { hasText: text }).waitFor({ timeout: DELIVERY_TIMEOUT });
    expect(await messageItem(page, text).count()).toBe(1);
    expect(pageProblems(noah)).toEqual([]);
  });

  it('fits a phone screen in the dark theme', async () => {
    const phone = await openUserPage(browser, server.url, {
      viewport: { width: 375, height: 740 },
      colorScheme: 'dark',
    });
    users.push(phone);
    const { page } = phone;
    await signIn(page, DEMO.chloe.email);
    // Narrow: the list first, then the channel in the popup (under 576 px) with a close button.
    await page.getByRole('navigation', { name: 'Chats' }).waitFor();
    await screenshot(page, 'phone-dark-list');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await openChannel(page, GROUP_CHANNEL);
    expect(await page.getByRole('navigation', { name: 'Chats' }).isVisible()).toBe(false);
    await screenshot(page, 'phone-dark-channel');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('dialog').getByRole('button', { name: 'Close chat' }).click();
    await page.waitForURL((url) => url.pathname === '/app');
    await page.getByRole('navigation', { name: 'Chats' }).waitFor();
    expect(pageProblems(phone)).toEqual([]);
  });

  it('sends a visitor without a session to login and back to where they were going', async () => {
    const visitor = await user();
    const { page } = visitor;
    await page.goto('/app?x');
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('redirectTo') === '/app?x');
    await screenshot(page, 'login-redirect');

    // A wrong password gets a clear message and keeps the redirect.
    await submitLogin(page, DEMO.chloe.email, 'not-the-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe('The e-mail or password is not correct.');
    await screenshot(page, 'login-error');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await submitLogin(page, DEMO.chloe.email);
    await page.waitForURL((url) => url.pathname === '/app' && url.search === '?x');
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await page.getByText('Please select a chat, or start a new chat.').waitFor();
    await page.getByRole('navigation', { name: 'Chats' }).waitFor();
    await screenshot(page, 'app-home');

    // Signed in, the login page sends the user on to the app.
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/app');
    expect(pageProblems(visitor, [/^401 POST \/api\/auth\/sign-in\/email$/])).toEqual([]);
  });
});
