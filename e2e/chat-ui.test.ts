import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { composer, DEMO, DEMO_PASSWORD, openChannel, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

/** The seeded group chat of the first case plan (all five demo users), named after it. */
const GROUP = 'Bennett family plan';
const LIVE = { timeout: 10_000 };

/** Sends `text` from the open channel's composer with Enter and waits until the server has it. */
async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await page.locator('[data-status="received"]', { hasText: text }).first().waitFor(LIVE);
}

/** Opens the actions menu of the message with `text` and picks `action`. */
async function messageAction(page: Page, text: string, action: string): Promise<void> {
  const item = page.locator('article', { hasText: text }).first();
  // The list may still be settling (new messages scroll it), so the hover-revealed button can be moving:
  // hover again and retry a few short clicks instead of one long wait for it to hold still.
  for (let attempt = 1; ; attempt++) {
    try {
      await item.scrollIntoViewIfNeeded();
      await item.hover();
      await item.getByRole('button', { name: 'Message actions' }).click({ timeout: 3_000 });
      break;
    } catch (err) {
      if (attempt >= 5) throw err;
    }
  }
  await page.getByRole('menuitem', { name: action }).click();
}

/** Calls a product callable (`/api/functions/<name>`) as a demo user, as the web app does. */
async function callableAs(baseUrl: string, email: string) {
  const signedIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const session = (await signedIn.json()) as { token?: string };
  const bearer = session.token ?? signedIn.headers.get('set-auth-token') ?? '';
  return async (name: string, data: unknown) => {
    const answer = await fetch(`${baseUrl}/api/functions/${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', origin: baseUrl },
      body: JSON.stringify({ data }),
    });
    if (!answer.ok) throw new Error(`${name}: ${answer.status} ${await answer.text()}`);
  };
}

/** Sets slow mode from the channel header's menu (team members moderate product chats). */
async function setSlowMode(page: Page, choice: string): Promise<void> {
  await page.getByRole('button', { name: 'Chat options' }).click();
  await page.getByRole('menuitem', { name: 'Slow mode' }).click();
  const dialog = page.getByRole('dialog', { name: 'Slow mode' });
  await dialog.getByRole('radio', { name: choice, exact: true }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
}

function cidOf(page: Page): string {
  const [, , , type, id] = new URL(page.url()).pathname.split('/');
  return `${decodeURIComponent(type ?? '')}:${decodeURIComponent(id ?? '')}`;
}

describe('chat screen (issue 7) in real Chromium', () => {
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

  async function user(email: string): Promise<UserPage> {
    const opened = await openUserPage(browser, server.url);
    users.push(opened);
    await signIn(opened.page, email);
    return opened;
  }

  it('team member, client and guest talk: header, mention, typing, react, quote, edit, delete, thread, unread', async () => {
    const started = Date.now();
    const [maria, chloe, gary] = await Promise.all([
      user(DEMO.maria.email),
      user(DEMO.chloe.email),
      user(DEMO.gary.email),
    ]);
    await Promise.all([
      openChannel(maria.page, GROUP),
      openChannel(chloe.page, GROUP),
      openChannel(gary.page, GROUP),
    ]);

    // Header: the badge by the viewer's rules, first names by role, '+ 1 more' and 'All Participants'.
    await expect.poll(() => maria.page.getByTestId('role-badge').innerText()).toBe('Guest');
    await expect.poll(() => chloe.page.getByTestId('role-badge').innerText()).toBe('Client & Guest');
    const names = maria.page.locator('.channel-participants');
    expect(await names.locator('strong').first().innerText()).toContain('Chloe');
    expect(await names.locator('em').first().innerText()).toContain('Gary');
    await maria.page.getByRole('button', { name: '+ 1 more' }).click();
    const all = maria.page.getByRole('dialog', { name: 'All Participants' });
    expect(await all.getByRole('listitem').count()).toBe(4);
    await screenshot(maria.page, 'chat-ui-participants');
    await all.getByRole('button', { name: 'Close' }).click();
    await all.waitFor({ state: 'detached' });

    // Mention autocomplete: '@Chl', Enter takes Chloe; chloe sees the mention highlighted.
    const token = crypto.randomUUID().slice(0, 8);
    await composer(maria.page).pressSequentially('Hello @Chl');
    const options = maria.page.getByRole('listbox', { name: 'People to mention' }).getByRole('option');
    await options.filter({ hasText: DEMO.chloe.name }).waitFor(LIVE);
    await composer(maria.page).press('Enter');
    expect(await composer(maria.page).inputValue()).toBe(`Hello @${DEMO.chloe.name} `);
    await composer(maria.page).pressSequentially(`how are you? ${token}`);
    await composer(maria.page).press('Enter');
    const hello = `how are you? ${token}`;
    await chloe.page
      .locator('.mention', { hasText: `@${DEMO.chloe.name}` })
      .first()
      .waitFor(LIVE);
    const helloOnChloe = chloe.page.locator('article', { hasText: hello });
    await helloOnChloe.waitFor(LIVE);

    // Typing indicator: gary types, maria sees it.
    await composer(gary.page).pressSequentially('typing');
    await maria.page.getByTestId('typing').getByText('Gary is typing…').waitFor(LIVE);
    await composer(gary.page).fill('');

    // React: chloe likes maria's message; maria sees the count.
    await helloOnChloe.hover();
    await helloOnChloe.getByRole('button', { name: 'Add reaction' }).click();
    await chloe.page.getByRole('button', { name: 'Like' }).click();
    await maria.page.getByRole('button', { name: 'Like: 1' }).waitFor(LIVE);
    await screenshot(maria.page, 'chat-ui-reaction');

    // Quote: gary quotes maria's message; chloe sees the quote in gary's bubble.
    const quoteText = `Quoting ${token}`;
    await gary.page.locator('article', { hasText: hello }).first().waitFor(LIVE);
    await messageAction(gary.page, hello, 'Quote');
    await gary.page.locator('.composer .quoted', { hasText: hello }).waitFor();
    await send(gary.page, quoteText);
    await chloe.page
      .locator('article', { hasText: quoteText })
      .locator('.quoted', { hasText: hello })
      .waitFor(LIVE);

    // Edit: maria edits her message; chloe sees the new text and 'Edited'.
    const original = `Typo ${token}`;
    await send(maria.page, original);
    await messageAction(maria.page, original, 'Edit');
    await maria.page.getByText('Editing message').waitFor();
    await composer(maria.page).fill(`Fixed ${token}`);
    await composer(maria.page).press('Enter');
    const edited = chloe.page.locator('article', { hasText: `Fixed ${token}` });
    await edited.getByText('Edited').waitFor(LIVE);

    // Delete: maria deletes it; chloe sees the deleted display.
    await messageAction(maria.page, `Fixed ${token}`, 'Delete');
    await maria.page
      .getByRole('dialog', { name: 'Delete message' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await edited.waitFor({ state: 'detached', ...LIVE });
    await chloe.page.getByText('This message was deleted').last().waitFor(LIVE);

    // Remove: gary writes, maria (a team member moderates) removes it; everyone sees the removal, not the words.
    // (Gary, not chloe: a message of chloe's here would start her slow-mode wait in the next test.)
    const words = `Please call me ${token}`;
    await send(gary.page, words);
    await maria.page.locator('article', { hasText: words }).waitFor(LIVE);
    await messageAction(maria.page, words, 'Delete');
    await maria.page
      .getByRole('dialog', { name: 'Delete message' })
      .getByRole('button', { name: 'Delete' })
      .click();
    for (const page of [chloe.page, gary.page, maria.page]) {
      await page.locator('article', { hasText: words }).waitFor({ state: 'detached', ...LIVE });
      await page.getByText('Message removed by a moderator').last().waitFor(LIVE);
    }

    // Thread: chloe replies in a thread to maria's message; maria sees '1 reply' and opens it.
    await messageAction(chloe.page, hello, 'Reply in thread');
    const thread = chloe.page.getByRole('complementary', { name: 'Thread' });
    await thread.waitFor();
    const reply = `In thread ${token}`;
    await thread.getByRole('textbox', { name: 'Reply' }).fill(reply);
    await thread.getByRole('textbox', { name: 'Reply' }).press('Enter');
    await thread.locator('[data-status="received"]', { hasText: reply }).waitFor(LIVE);
    const replies = maria.page
      .locator('article', { hasText: hello })
      .getByRole('button', { name: '1 reply' });
    await replies.waitFor(LIVE);
    await screenshot(chloe.page, 'chat-ui-thread');
    expect(await seriousA11yViolations(chloe.page)).toEqual([]);
    await replies.click();
    await maria.page.getByRole('complementary', { name: 'Thread' }).getByText(reply).waitFor(LIVE);
    await maria.page.getByRole('button', { name: 'Close thread' }).click();

    // Mark unread: gary marks maria's message unread; the separator shows after reopening.
    await messageAction(gary.page, hello, 'Mark as unread');
    await gary.page.goto('/app');
    await openChannel(gary.page, GROUP);
    await gary.page.getByTestId('unread-separator').waitFor(LIVE);
    await screenshot(gary.page, 'chat-ui-unread');

    await screenshot(maria.page, 'chat-ui-maria');
    expect(await seriousA11yViolations(maria.page)).toEqual([]);
    for (const u of [maria, chloe, gary]) expect(pageProblems(u)).toEqual([]);
    process.stdout.write(`[e2e] three-user conversation in ${Date.now() - started} ms\n`);
  });

  it('slow mode set by a team member counts down for a client; closing the case plan archives the chat', async () => {
    const [maria, chloe] = await Promise.all([user(DEMO.maria.email), user(DEMO.chloe.email)]);
    await Promise.all([openChannel(maria.page, GROUP), openChannel(chloe.page, GROUP)]);
    const cid = cidOf(chloe.page);
    // A client is no moderator: her channel menu has her own list actions but no slow mode.
    await chloe.page.getByRole('button', { name: 'Chat options' }).click();
    await chloe.page.getByRole('menuitem', { name: 'Pin to top' }).waitFor();
    expect(await chloe.page.getByRole('menuitem', { name: 'Slow mode' }).count()).toBe(0);
    await chloe.page.keyboard.press('Escape');

    await setSlowMode(maria.page, '30 seconds');
    await screenshot(maria.page, 'chat-ui-slow-mode-set');
    // Chloe may have written in the last 30 s (the test before): her client then counts down from that message
    // once the new cooldown reached it. Let that run out, so that this message starts a full countdown (a
    // countdown with a second left used to vanish between Enter and the checks below).
    const timer = chloe.page.getByRole('timer');
    await chloe.page.waitForTimeout(1500);
    if ((await timer.count()) > 0) await timer.waitFor({ state: 'detached', timeout: 35_000 });
    await composer(chloe.page).fill(`Slow ${crypto.randomUUID().slice(0, 6)}`);
    await composer(chloe.page).press('Enter');
    await timer.waitFor(LIVE);
    const first = Number(await timer.innerText());
    expect(first).toBeGreaterThan(2);
    expect(first).toBeLessThanOrEqual(30);
    expect(await composer(chloe.page).getAttribute('placeholder')).toMatch(/^Slow mode is on: wait \d+s$/);
    await expect.poll(async () => Number(await timer.innerText()), { timeout: 4000 }).toBeLessThan(first);
    await screenshot(chloe.page, 'chat-ui-slow-mode');
    await setSlowMode(maria.page, 'Off');
    await chloe.page.getByRole('button', { name: 'Send' }).waitFor(LIVE);

    // Closing the case plan (an org admin's call) freezes its chats: 'Archived', and no input.
    const asAdmin = await callableAs(server.url, DEMO.admin.email);
    const caseplanId = (cid.split(':')[1] ?? '').replace(/^caseplan-/, '');
    await asAdmin('caseplans-close', { caseplanId, reason: 'e2e' });
    try {
      await chloe.page.locator('.chip-archived', { hasText: 'Archived' }).waitFor(LIVE);
      await chloe.page.getByText("You can't send messages in this channel").waitFor(LIVE);
      await screenshot(chloe.page, 'chat-ui-frozen');
      expect(await seriousA11yViolations(chloe.page)).toEqual([]);
    } finally {
      await asAdmin('caseplans-reopen', { caseplanId });
    }
    await composer(chloe.page).waitFor(LIVE);
    expect(pageProblems(maria)).toEqual([]);
    // The server counts thread replies too: if chloe's reply in the test before is under 30 s old, her message is
    // refused for slow mode (429, code 60) and the countdown runs from the wait it names. Nothing else may fail.
    expect(pageProblems(chloe).filter((p) => !/^429 POST \/chat\/channels\/[^ ]+\/message$/.test(p))).toEqual(
      [],
    );
  });

  it('opens the chat in a popup at 375 px and closes it back to the list', async () => {
    const phone = await openUserPage(browser, server.url, { viewport: { width: 375, height: 740 } });
    users.push(phone);
    await signIn(phone.page, DEMO.gary.email);
    await openChannel(phone.page, GROUP);
    const popup = phone.page.getByRole('dialog', { name: GROUP });
    await popup.waitFor();
    await screenshot(phone.page, 'chat-ui-popup-375');
    expect(await seriousA11yViolations(phone.page)).toEqual([]);
    await popup.getByRole('button', { name: 'Close chat' }).click();
    await phone.page.waitForURL((url) => url.pathname === '/app');
    await phone.page.getByRole('navigation', { name: 'Chats' }).waitFor();
    expect(pageProblems(phone)).toEqual([]);
  });
});
