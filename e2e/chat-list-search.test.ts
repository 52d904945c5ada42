import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { DEMO, signIn } from './support/caseroom.js';
import { chatAs } from './support/chat-api.js';
import { startServer, type RunningServer } from './support/server.js';

const LIVE = { timeout: 10_000 };
/** The seeded group chat of the first case plan (all five demo users). */
const GROUP = 'Bennett family plan';

/**
 * Chat list management (pin, archive, mute, hide with the list's filters), "New chat" and message search on the
 * demo data, at 1280 px as Maria (team member) and at 375 px as Chloe (client), whose direct chat is with each
 * other. Every scenario puts the list back as it found it.
 */
const WIDTHS = [
  {
    label: '1280',
    viewport: { width: 1280, height: 900 },
    me: DEMO.maria,
    other: DEMO.chloe,
    direct: DEMO.chloe.name,
    narrow: false,
  },
  {
    label: '375',
    viewport: { width: 375, height: 812 },
    me: DEMO.chloe,
    other: DEMO.maria,
    direct: DEMO.maria.name,
    narrow: true,
  },
] as const;

const chats = (page: Page) => page.getByRole('navigation', { name: 'Chats' });
const row = (page: Page, title: string) =>
  chats(page)
    .getByRole('link')
    .filter({ has: page.locator('.channel-link-name', { hasText: new RegExp(`^${title}$`) }) });
const titles = async (page: Page) => chats(page).locator('.channel-link-name').allInnerTexts();
const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text }).first();

async function filter(page: Page, name: string): Promise<void> {
  await page
    .getByRole('group', { name: 'Show chats' })
    .getByRole('button', { name: new RegExp(`^${name}`) })
    .click();
}

/** The unread total the Unread filter shows (0 when it shows none). */
async function unreadTotal(page: Page): Promise<number> {
  const count = page.getByTestId('unread-total');
  if ((await count.count()) === 0) return 0;
  return Number((await count.locator('[aria-hidden="true"]').innerText()).trim());
}

describe.each(WIDTHS)('chat list and search at $label px', (width) => {
  let server: RunningServer;
  let browser: Browser;
  const users: UserPage[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    for (const user of users) await user.context.close();
    await browser?.close();
    await server?.stop();
  });

  async function open(): Promise<UserPage> {
    const user = await openUserPage(browser, server.url, { viewport: width.viewport });
    users.push(user);
    await signIn(user.page, width.me.email);
    await chats(user.page).getByRole('link').first().waitFor(LIVE);
    return user;
  }

  /** Opens a chat from the list (in the popup at 375 px) and waits for its header. */
  async function openChat(page: Page, title: string): Promise<void> {
    await row(page, title).click();
    await page.getByRole('heading', { level: 2, name: title, exact: true }).waitFor(LIVE);
  }

  /** Back to the list: the popup's close at 375 px, the app root at 1280 px (a reload: the filter is All again). */
  async function backToList(page: Page): Promise<void> {
    if (width.narrow) await page.getByRole('button', { name: 'Close chat' }).click();
    else await page.goto('/app');
    await page.waitForURL((url) => url.pathname === '/app');
    await page.getByRole('region', { name: 'Chat list' }).waitFor(LIVE);
  }

  async function menu(page: Page, item: string, done: string): Promise<void> {
    await page.getByRole('button', { name: 'Chat options' }).click();
    await page.getByRole('menuitem', { name: item }).click();
    await toast(page, done).waitFor(LIVE);
  }

  it('pin moves a chat to the top, survives a reload and shows under Pinned', async () => {
    const user = await open();
    const { page } = user;
    const before = await titles(page);
    const target = before.at(-1) ?? '';
    expect(before.length).toBeGreaterThan(1);
    expect(before[0]).not.toBe(target);

    await openChat(page, target);
    await menu(page, 'Pin to top', 'Chat pinned to the top of the list.');
    await backToList(page);
    await expect.poll(() => titles(page).then((t) => t[0]), LIVE).toBe(target);
    expect(await row(page, target).getAttribute('data-pinned')).toBe('true');
    await screenshot(page, `chat-list-pinned-${width.label}`);

    await page.reload();
    await chats(page).getByRole('link').first().waitFor(LIVE);
    expect((await titles(page))[0]).toBe(target);
    await filter(page, 'Pinned');
    await expect.poll(() => titles(page), LIVE).toEqual([target]);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await openChat(page, target);
    await menu(page, 'Unpin', 'Chat unpinned.');
    await backToList(page);
    await filter(page, 'Pinned');
    await page.getByText('No pinned chats.', { exact: false }).waitFor(LIVE);
    await filter(page, 'All');
    await expect.poll(() => titles(page), LIVE).toEqual(before);
    expect(pageProblems(user)).toEqual([]);
  });

  it('archive moves a chat to the Archived filter and back', async () => {
    const user = await open();
    const { page } = user;
    await openChat(page, width.direct);
    await menu(page, 'Archive', 'Chat archived. Find it under Archived.');
    await backToList(page);
    await expect.poll(() => titles(page), LIVE).not.toContain(width.direct);
    await filter(page, 'Archived');
    await expect.poll(() => titles(page), LIVE).toEqual([width.direct]);
    await screenshot(page, `chat-list-archived-${width.label}`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await openChat(page, width.direct);
    await menu(page, 'Move out of the archive', 'Chat moved back to your chats.');
    await backToList(page);
    await filter(page, 'Archived');
    await page.getByText('No archived chats.').waitFor(LIVE);
    await filter(page, 'All');
    await expect.poll(() => titles(page), LIVE).toContain(width.direct);
    expect(pageProblems(user)).toEqual([]);
  });

  it('mute shows the icon, and its unread messages do not count in the unread total', async () => {
    const user = await open();
    const { page } = user;
    await openChat(page, width.direct);
    const directCid = new URL(page.url()).pathname.split('/').slice(3).map(decodeURIComponent).join(':');
    await menu(page, 'Mute notifications', 'Chat muted.');
    await backToList(page);
    await row(page, width.direct).getByTestId('muted-icon').waitFor(LIVE);
    const groupCid = (await row(page, GROUP).getAttribute('data-cid')) ?? '';
    const before = await unreadTotal(page);

    const other = await chatAs(server.url, width.other.email);
    await other.send(directCid, `muted news ${crypto.randomUUID().slice(0, 6)}`);
    await other.send(groupCid, `group news ${crypto.randomUUID().slice(0, 6)}`);
    // Both chats show their unread message; only the group's counts in the total.
    await row(page, width.direct).locator('.badge-muted').waitFor(LIVE);
    await expect.poll(() => unreadTotal(page), LIVE).toBe(before + 1);
    await filter(page, 'Unread');
    await expect.poll(() => titles(page), LIVE).toContain(GROUP);
    expect(await titles(page)).not.toContain(width.direct);
    await screenshot(page, `chat-list-muted-unread-${width.label}`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await filter(page, 'All');
    await openChat(page, width.direct);
    await menu(page, 'Unmute', 'Chat unmuted.');
    await backToList(page);
    expect(await row(page, width.direct).getByTestId('muted-icon').count()).toBe(0);
    expect(pageProblems(user)).toEqual([]);
  });

  it('hide removes a chat until a new message arrives', async () => {
    const user = await open();
    const { page } = user;
    await openChat(page, width.direct);
    const directCid = new URL(page.url()).pathname.split('/').slice(3).map(decodeURIComponent).join(':');
    await menu(page, 'Hide until a new message', 'Chat hidden.');
    await page.waitForURL((url) => url.pathname === '/app', LIVE);
    await expect.poll(() => titles(page), LIVE).not.toContain(width.direct);
    await page.reload();
    await chats(page).getByRole('link').first().waitFor(LIVE);
    expect(await titles(page)).not.toContain(width.direct);

    const other = await chatAs(server.url, width.other.email);
    const text = `are you there ${crypto.randomUUID().slice(0, 6)}`;
    await other.send(directCid, text);
    await row(page, width.direct).filter({ hasText: text }).waitFor(LIVE);
    expect((await titles(page))[0]).toBe(width.direct);
    await screenshot(page, `chat-list-hidden-back-${width.label}`);
    expect(pageProblems(user)).toEqual([]);
  });

  it('New chat in the list opens the dialog and starts a chat', async () => {
    const user = await open();
    const { page } = user;
    const newChat = page.getByRole('button', { name: 'New chat', exact: true });
    await newChat.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Start a new chat' });
    await dialog.waitFor();
    await dialog.getByLabel('Find a contact').fill('Noah');
    await dialog.getByRole('checkbox', { name: /Noah/ }).check();
    await screenshot(page, `chat-list-new-chat-${width.label}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Start chat' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/app/chat/'), LIVE);
    await page.getByRole('heading', { level: 2, name: /Noah/ }).waitFor(LIVE);
    expect(pageProblems(user)).toEqual([]);
  });

  it('search within a chat and across chats finds a message and the jump highlights it', async () => {
    const user = await open();
    const { page } = user;
    await openChat(page, GROUP);
    await page.getByRole('button', { name: 'Search in this chat' }).click();
    const inChat = page.getByRole('dialog', { name: `Search in ${GROUP}` });
    await inChat.getByLabel('Search messages').fill('Thursday');
    const results = inChat.getByRole('list', { name: 'Results' }).getByRole('button');
    await expect.poll(() => results.count(), LIVE).toBe(2);
    expect(await inChat.locator('mark').first().innerText()).toBe('Thursday');
    await screenshot(page, `chat-search-in-chat-${width.label}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Keyboard: from the field down into the results, Enter opens the focused one.
    await inChat.getByLabel('Search messages').press('ArrowDown');
    const first = await results.first().innerText();
    await page.keyboard.press('Enter');
    await inChat.waitFor({ state: 'detached' });
    const highlighted = page.locator('.message-highlight');
    await highlighted.waitFor(LIVE);
    expect(first).toContain(
      (await highlighted.innerText()).split('\n').find((l) => l.includes('Thursday')) ?? '?',
    );
    await highlighted.waitFor({ state: 'detached', timeout: 5_000 });

    await backToList(page);
    await page.getByRole('button', { name: 'Search all chats' }).click();
    const all = page.getByRole('dialog', { name: 'Search all chats' });
    await all.getByLabel('Search messages').fill('zzqqxx');
    await all.getByText('No messages match “zzqqxx”.').waitFor(LIVE);
    await all.getByLabel('Search messages').fill('week');
    const found = all.getByRole('list', { name: 'Results' }).getByRole('button');
    await found.first().waitFor(LIVE);
    expect(await found.first().locator('.search-result-channel').innerText()).toBe(width.direct);
    await screenshot(page, `chat-search-all-${width.label}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await found.first().click();
    await page.getByRole('heading', { level: 2, name: width.direct, exact: true }).waitFor(LIVE);
    await page.locator('.message-highlight', { hasText: 'How did the week go?' }).waitFor(LIVE);
    expect(pageProblems(user)).toEqual([]);
  });
});
