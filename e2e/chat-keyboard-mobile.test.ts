import crypto from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { composer, DEMO, DEMO_PASSWORD, openChannel, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';
import {
  horizontalOverflow,
  insideViewport,
  longPress,
  menuItemNames,
  reachable,
} from './support/viewport.js';

/**
 * The group chat all tests use, made by the test: a title far wider than a phone (and a word that cannot wrap),
 * four others so the header has '+ 1 more'. Only maria writes in it, so it always opens at its newest message.
 */
const GROUP =
  'Weekly coordination for the Bennett family support plan with school, housing and health services ' +
  'Superlongunbrokenwordthatcannotwrapanywhereatall';
const LIVE = { timeout: 10_000 };
const WIDTHS = [1280, 375] as const;

/** A demo user's session for the product API, as the web app holds it. */
async function apiAs(baseUrl: string, email: string) {
  const signedIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const session = (await signedIn.json()) as { token?: string };
  const headers = {
    authorization: `Bearer ${session.token ?? signedIn.headers.get('set-auth-token') ?? ''}`,
    'content-type': 'application/json',
    origin: baseUrl,
  };
  const get = async <T>(path: string): Promise<T> => {
    const answer = await fetch(`${baseUrl}${path}`, { headers });
    if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as T;
  };
  const call = async <T>(name: string, data: unknown): Promise<T> => {
    const answer = await fetch(`${baseUrl}/api/functions/${name}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ data }),
    });
    if (!answer.ok) throw new Error(`${name}: ${answer.status} ${await answer.text()}`);
    return ((await answer.json()) as { result: T }).result;
  };
  return { get, call };
}

/** The message bubble with `text` in `scope` (the page, or a popup or thread panel). */
function bubble(scope: Page | Locator, text: string): Locator {
  return scope.locator('article', { hasText: text }).last();
}

/** The dialog the chat opens in at 375 px, or the page at 1280 px. */
function chatScope(page: Page, width: number, title: string): Page | Locator {
  return width < 576 ? page.getByRole('dialog', { name: title }) : page;
}

/**
 * Opens the chat titled `title` and waits for its watch query to answer: the list can show the channel (from the
 * chat list's query) before that, and a message sent in between can be dropped when the answer replaces the
 * messages (seen here as a send that never shows; the SDK side is not this test's subject).
 */
async function openWatched(page: Page, title: string): Promise<void> {
  const watched = page.waitForResponse((answer) =>
    /^\/chat\/channels\/[^/]+\/[^/]+\/query$/.test(new URL(answer.url()).pathname),
  );
  await openChannel(page, title);
  await watched;
}

/** Sends `text` with Enter and waits until the server has it. */
async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await page.locator('[data-status="received"]', { hasText: text }).first().waitFor(LIVE);
}

/** The name of the focused element (aria-label or text), for keyboard assertions. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim();
  });
}

describe('chat by keyboard, on phones and with layers (issue 15)', () => {
  let server: RunningServer;
  let browser: Browser;
  const users: UserPage[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    // The group chat: maria, chloe, gary, noah and the admin (Alex Morgan).
    const maria = await apiAs(server.url, DEMO.maria.email);
    const contacts = await maria.get<{ id: string; name: string }[]>('/api/contacts');
    const me = await maria.get<{ uid: string }>('/api/me');
    const idOf = (name: string) => contacts.find((c) => c.name === name)?.id ?? '';
    await maria.call('chat-startChat', {
      contacts: [me.uid, ...[DEMO.chloe, DEMO.gary, DEMO.noah, DEMO.admin].map((u) => idOf(u.name))],
      name: GROUP,
    });
  });

  afterAll(async () => {
    for (const user of users) await user.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  async function user(email: string, width: number, touch = false): Promise<UserPage> {
    const opened = await openUserPage(browser, server.url, { viewport: { width, height: 760 }, touch });
    users.push(opened);
    await signIn(opened.page, email);
    return opened;
  }

  /** Maria in the group chat at `width`, with a fresh message of her own at the bottom. */
  async function mariaWithMessage(width: number, prefix: string, touch = false) {
    const maria = await user(DEMO.maria.email, width, touch);
    await openWatched(maria.page, GROUP);
    const scope = chatScope(maria.page, width, GROUP);
    const text = `${prefix} ${crypto.randomUUID().slice(0, 6)}`;
    await send(maria.page, text);
    return { maria, page: maria.page, scope, message: bubble(scope, text) };
  }

  for (const width of WIDTHS) {
    it(`fits a ${width} px screen with a very long group title; close, threads, options and send reachable`, async () => {
      const maria = await user(DEMO.maria.email, width);
      const { page } = maria;
      // The chat list with the long title in it fits too.
      await page.getByRole('navigation', { name: 'Chats' }).getByText(GROUP).waitFor(LIVE);
      expect((await horizontalOverflow(page, width)).overflowing).toEqual([]);
      await openWatched(page, GROUP);
      const scope = chatScope(page, width, GROUP);
      await send(page, `Fits ${crypto.randomUUID().slice(0, 6)}`);
      await screenshot(page, `chat-keyboard-mobile-long-title-${width}`);

      const { scrollWidth, overflowing } = await horizontalOverflow(page, width);
      expect(overflowing).toEqual([]);
      expect(scrollWidth).toBeLessThanOrEqual(width);

      const controls = [
        scope.getByRole('button', { name: /^Threads/ }),
        scope.getByRole('button', { name: 'Chat options' }),
        ...(width < 576 ? [scope.getByRole('button', { name: 'Close chat' })] : []),
      ];
      for (const control of controls) {
        expect(await insideViewport(control)).toBe(true);
        expect(await reachable(control)).toBe(true);
      }
      await composer(page).fill('Still reachable');
      const sendButton = scope.getByRole('button', { name: 'Send' });
      expect(await insideViewport(sendButton)).toBe(true);
      expect(await reachable(sendButton)).toBe(true);
      await sendButton.click();
      await page.locator('[data-status="received"]', { hasText: 'Still reachable' }).first().waitFor(LIVE);
      expect(await seriousA11yViolations(page)).toEqual([]);

      if (width < 576) {
        await scope.getByRole('button', { name: 'Close chat' }).click();
        await page.waitForURL((url) => url.pathname === '/app');
      }
      expect(pageProblems(maria)).toEqual([]);
    });
  }
  for (const width of WIDTHS) {
    it(`${width} px: a message by keyboard (focus, actions button, arrows, Enter) and Escape back to the button`, async () => {
      const { maria, page, message } = await mariaWithMessage(width, 'Keys');
      const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

      // Shift+Tab from the composer reaches the newest message; its actions button shows while it has the focus.
      await composer(page).focus();
      for (let i = 0; i < 12 && !(await isFocused(message)); i++) await page.keyboard.press('Shift+Tab');
      expect(await isFocused(message)).toBe(true);
      const actions = message.getByRole('button', { name: 'Message actions' });
      expect(await actions.isVisible()).toBe(true);
      await screenshot(page, `chat-keyboard-mobile-focused-${width}`);

      // Tab to the actions button; Enter opens the menu on its first item; the arrows, Home and End move.
      for (let i = 0; i < 4 && !(await isFocused(actions)); i++) await page.keyboard.press('Tab');
      expect(await isFocused(actions)).toBe(true);
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu', { name: 'Message actions' });
      await menu.waitFor();
      const names = await menuItemNames(menu);
      expect(names.length).toBeGreaterThan(3);
      expect(await focusedName(page)).toBe(names[0]);
      await page.keyboard.press('ArrowDown');
      expect(await focusedName(page)).toBe(names[1]);
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      expect(await focusedName(page)).toBe(names.at(-1));
      await page.keyboard.press('Home');
      expect(await focusedName(page)).toBe(names[0]);
      await page.keyboard.press('End');
      expect(await focusedName(page)).toBe(names.at(-1));
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, `chat-keyboard-mobile-menu-${width}`);

      // Escape closes the menu only (the popup stays at 375 px) and the focus is back on the button.
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      expect(await isFocused(actions)).toBe(true);
      if (width < 576) expect(await page.getByRole('dialog', { name: GROUP }).isVisible()).toBe(true);

      // Enter on the message itself opens the menu too; "Add reaction" and Enter: the picker, focus on Haha.
      await message.focus();
      await page.keyboard.press('Enter');
      await menu.waitFor();
      for (let i = 0; i < names.length && (await focusedName(page)) !== 'Add reaction'; i++) {
        await page.keyboard.press('ArrowDown');
      }
      await page.keyboard.press('Enter');
      const picker = page.getByRole('group', { name: 'Pick a reaction' });
      await picker.waitFor();
      expect(await focusedName(page)).toBe('Haha');
      expect(await insideViewport(picker)).toBe(true);
      await page.keyboard.press('ArrowRight');
      expect(await focusedName(page)).toBe('Like');
      await page.keyboard.press('Enter');
      await picker.waitFor({ state: 'detached' });
      await message.locator('.reaction-chip[aria-pressed="true"]').waitFor(LIVE);
      expect(await focusedName(page)).toBe('Add reaction');
      expect(pageProblems(maria)).toEqual([]);
    });

    it(`${width} px: menus and popups at the bottom and right edges open fully on screen`, async () => {
      const { maria, page, scope, message } = await mariaWithMessage(width, 'Edge');
      const onScreen = async (popover: Locator, checkItems = true) => {
        await popover.waitFor();
        // Placement runs a frame after the popover appears: wait for it to settle inside the screen.
        await expect.poll(() => insideViewport(popover)).toBe(true);
        if (!checkItems) return;
        for (const item of await popover.locator('button, li').all())
          expect(await reachable(item)).toBe(true);
      };

      // The newest message sits just above the composer, its menu button near the right edge.
      await message.hover();
      await message.getByRole('button', { name: 'Message actions' }).click();
      const menu = page.getByRole('menu', { name: 'Message actions' });
      await onScreen(menu);
      await screenshot(page, `chat-keyboard-mobile-edge-menu-${width}`);
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });

      await message.hover();
      await message.getByRole('button', { name: 'Add reaction' }).click();
      await onScreen(page.getByRole('group', { name: 'Pick a reaction' }));
      await page.keyboard.press('Escape');

      await scope.getByRole('button', { name: 'Chat options' }).click();
      await onScreen(page.getByRole('menu', { name: 'Chat options' }));
      await page.keyboard.press('Escape');

      await scope.getByRole('button', { name: /^\+ \d+ more$/ }).click();
      const participants = page.getByRole('dialog', { name: 'All Participants' });
      await onScreen(participants);
      await screenshot(page, `chat-keyboard-mobile-edge-participants-${width}`);
      await page.keyboard.press('Escape');
      await participants.waitFor({ state: 'detached' });

      // The emoji picker (emoji-mart, its own scrolling grid) above the composer's right end.
      await scope.getByRole('button', { name: 'Emoji' }).click();
      const emoji = page.getByRole('dialog', { name: 'Emoji' });
      await emoji.locator('em-emoji-picker').waitFor();
      await onScreen(emoji, false);
      await screenshot(page, `chat-keyboard-mobile-edge-emoji-${width}`);
      await page.keyboard.press('Escape');
      await emoji.waitFor({ state: 'detached' });
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(pageProblems(maria)).toEqual([]);
    });

    it(`${width} px: a long press on touch offers every action of the desktop menu`, async () => {
      // The desktop menu of maria's own message: the reference.
      const desk = await mariaWithMessage(width, 'Press');
      const text = (await desk.message.locator('.message-text').innerText()).trim();
      await desk.message.hover();
      await desk.message.getByRole('button', { name: 'Message actions' }).click();
      const deskNames = await menuItemNames(desk.page.getByRole('menu', { name: 'Message actions' }));
      expect(deskNames).toEqual(expect.arrayContaining(['Reply in thread', 'Quote', 'Add reaction', 'Edit']));

      const phone = await user(DEMO.maria.email, width, true);
      await openWatched(phone.page, GROUP);
      const message = bubble(chatScope(phone.page, width, GROUP), text);
      await message.waitFor(LIVE);
      const menu = phone.page.getByRole('menu', { name: 'Message actions' });
      await longPress(message.locator('.message-text'), menu);
      expect(await menuItemNames(menu)).toEqual(deskNames);
      await expect.poll(() => insideViewport(menu)).toBe(true);
      for (const item of await menu.getByRole('menuitem').all()) expect(await reachable(item)).toBe(true);
      expect(await seriousA11yViolations(phone.page)).toEqual([]);
      await screenshot(phone.page, `chat-keyboard-mobile-long-press-${width}`);

      // A tap on an item does it: "Quote" puts the message above the input.
      await menu.getByRole('menuitem', { name: 'Quote' }).tap();
      await menu.waitFor({ state: 'detached' });
      await phone.page.locator('.composer-context', { hasText: text }).waitFor();
      expect(pageProblems(phone)).toEqual([]);
      expect(pageProblems(desk.maria)).toEqual([]);
    });
  }

  it('375 px popup: Escape closes the menu, picker, popup, list or panel on top, then the chat popup', async () => {
    const { maria, page, scope, message } = await mariaWithMessage(375, 'Layers');
    const popup = page.getByRole('dialog', { name: GROUP });
    /** Opens a layer, presses Escape, and checks that only that layer went. */
    const escapeCloses = async (open: () => Promise<void>, layer: Locator) => {
      await open();
      await layer.waitFor();
      await page.keyboard.press('Escape');
      await layer.waitFor({ state: 'detached' });
      expect(await popup.isVisible()).toBe(true);
    };
    const actions = async (name: string) => {
      await message.hover();
      await message.getByRole('button', { name }).click();
    };
    const menu = page.getByRole('menu', { name: 'Message actions' });
    await escapeCloses(() => actions('Message actions'), menu);
    await escapeCloses(() => actions('Add reaction'), page.getByRole('group', { name: 'Pick a reaction' }));
    await escapeCloses(
      () => scope.getByRole('button', { name: 'Chat options' }).click(),
      page.getByRole('menu', { name: 'Chat options' }),
    );
    await escapeCloses(
      () => scope.getByRole('button', { name: /^\+ \d+ more$/ }).click(),
      page.getByRole('dialog', { name: 'All Participants' }),
    );
    await escapeCloses(
      () => composer(page).pressSequentially('@'),
      page.getByRole('listbox', { name: 'People to mention' }),
    );
    await composer(page).fill('');
    await escapeCloses(
      () => scope.getByRole('button', { name: 'Emoji' }).click(),
      page.getByRole('dialog', { name: 'Emoji' }),
    );
    // A thread over the list, and a menu inside it: Escape closes the menu, then the thread, then the popup.
    const thread = page.getByRole('complementary', { name: 'Thread' });
    await actions('Message actions');
    await menu.getByRole('menuitem', { name: 'Reply in thread' }).click();
    await thread.waitFor();
    const parent = bubble(thread, (await message.locator('.message-text').innerText()).trim());
    await escapeCloses(async () => {
      await parent.hover();
      await parent.getByRole('button', { name: 'Message actions' }).click();
    }, menu);
    expect(await thread.isVisible()).toBe(true);
    await screenshot(page, 'chat-keyboard-mobile-layers-thread-375');
    await page.keyboard.press('Escape');
    await thread.waitFor({ state: 'detached' });
    expect(await popup.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/app');
    expect(pageProblems(maria)).toEqual([]);
  });

  it('1280 px: Escape closes a confirmation over a menu in a thread, one layer at a time', async () => {
    const { maria, page, message } = await mariaWithMessage(1280, 'Desk layers');
    await message.hover();
    await message.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'Reply in thread' }).click();
    const thread = page.getByRole('complementary', { name: 'Thread' });
    await thread.waitFor();
    const parent = thread.locator('article').first();
    await parent.hover();
    await parent.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete message' });
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await thread.isVisible()).toBe(true);
    await parent.hover();
    await parent.getByRole('button', { name: 'Message actions' }).click();
    const menu = page.getByRole('menu', { name: 'Message actions' });
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await thread.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await thread.waitFor({ state: 'detached' });
    expect(await message.isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(pageProblems(maria)).toEqual([]);
  });
});
