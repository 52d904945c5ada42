import { SignJWT } from 'jose';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { composer, DEMO, DEMO_PASSWORD, openChannel, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Issue 15 "Avatars", "Dates and times" and "Slash commands", end to end in real Chromium on the demo data: Maria
 * uploads a photo through the profile page (`PUT /api/me/photo`), and her photo then stands for her in the message
 * list, the mention suggestions, the reactions detail and the participants popup; Gary, without a photo, shows his
 * initials. Whoever has the chat open is online (a green dot with a text), whoever left is not. Chloe switches to
 * Norwegian with a profile time zone far from the machine's and reads every time in that zone and language. '/'
 * lists the registered commands with their arguments. At 1280 px and 375 px, axe clean throughout.
 */
const GROUP = 'Bennett family plan';
const LIVE = { timeout: 20_000 };
/** The development chat secret every e2e server runs with (packages/server/src/platform/config.ts). */
const DEV_CHAT_SECRET = 'caseroom-dev-chat-secret-change-me';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };
/** A zone far from any test machine's: its wall clock differs from UTC and Europe's by hours. */
const ZONE = 'Pacific/Kiritimati';

/** A 300x300 PNG portrait (a face-like drawing); the server crops it to a 256 px WebP. */
function portrait(): Promise<Buffer> {
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><rect width="300" height="300" fill="#7a4b9c"/>` +
      `<circle cx="150" cy="120" r="70" fill="#f5d0a9"/><rect x="60" y="200" width="180" height="100" rx="50" fill="#2b6cb0"/></svg>`,
  );
  return sharp(svg).png().toBuffer();
}

/** Registers a slash command through the chat's server-side API (as an operator would; none are built in). */
async function registerCommand(
  baseUrl: string,
  command: { name: string; args: string; description: string },
) {
  const config = (await (await fetch(`${baseUrl}/api/config`)).json()) as { chatApiKey: string };
  const token = await new SignJWT({ server: true })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(new TextEncoder().encode(DEV_CHAT_SECRET));
  const answer = await fetch(`${baseUrl}/chat/commands?api_key=${config.chatApiKey}`, {
    method: 'POST',
    headers: { authorization: token, 'auth-type': 'jwt', 'content-type': 'application/json' },
    body: JSON.stringify(command),
  });
  expect(answer.status, await answer.clone().text()).toBeLessThan(300);
}

/** Uploads `photo` as a demo user through the profile photo route (`PUT /api/me/photo`), as the profile page does. */
async function uploadPhotoAs(baseUrl: string, email: string, photo: Buffer): Promise<void> {
  const signedIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const session = (await signedIn.json()) as { token?: string };
  const bearer = session.token ?? signedIn.headers.get('set-auth-token') ?? '';
  const answer = await fetch(`${baseUrl}/api/me/photo`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'image/png', origin: baseUrl },
    body: new Uint8Array(photo),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
}

/** The bubble of the message with `text` in the open chat. */
function bubbleOf(page: Page, text: string): Locator {
  return page.locator('article', { hasText: text }).first();
}

async function noSeriousViolations(page: Page, where: string): Promise<void> {
  expect({ where, violations: await seriousA11yViolations(page) }).toEqual({ where, violations: [] });
}

async function sendAndWait(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await page.locator('[data-status="received"]', { hasText: text }).first().waitFor(LIVE);
}

describe('avatars, presence, dates and slash commands (issue 15) in real Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const users: UserPage[] = [];
  const stamp = Date.now().toString(36);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await registerCommand(server.url, {
      name: 'remind',
      args: '[when] [what]',
      description: 'Remind the chat about something',
    });
    // Each test may run alone: Maria has a photo from the start (the first test uploads one again, in the page).
    await uploadPhotoAs(server.url, DEMO.maria.email, await portrait());
  });

  afterAll(async () => {
    for (const user of users) await user.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  async function user(email: string, viewport = DESKTOP): Promise<UserPage> {
    const opened = await openUserPage(browser, server.url, { viewport });
    users.push(opened);
    await signIn(opened.page, email);
    return opened;
  }

  it('shows photos, initials and presence at 1280 px, and lists commands with their arguments', async () => {
    const [maria, chloe, gary] = await Promise.all([
      user(DEMO.maria.email),
      user(DEMO.chloe.email),
      user(DEMO.gary.email),
    ]);

    // Maria uploads her photo on the profile page; the page shows it at once.
    await maria.page.goto('/app/profile');
    await maria.page.getByLabel('Photo').setInputFiles({
      name: 'maria.png',
      mimeType: 'image/png',
      buffer: await portrait(),
    });
    const profilePhoto = maria.page.locator('.profile-photo img');
    await profilePhoto.waitFor(LIVE);
    expect(await profilePhoto.getAttribute('src')).toMatch(/^\/api\/users\/[^/]+\/photo\?v=\d+$/);
    await noSeriousViolations(maria.page, 'profile with photo');
    await screenshot(maria.page, 'chat-avatars-profile-1280');

    await Promise.all([
      openChannel(maria.page, GROUP),
      openChannel(chloe.page, GROUP),
      openChannel(gary.page, GROUP),
    ]);
    const fromMaria = `Photo check from Maria ${stamp}`;
    const fromGary = `Initials check from Gary ${stamp}`;
    await sendAndWait(maria.page, fromMaria);
    await sendAndWait(gary.page, fromGary);

    // Message list: Maria's photo (loaded, not broken) with the online dot; Gary's initials, online too for now.
    const mariaBubble = bubbleOf(chloe.page, fromMaria);
    await mariaBubble.waitFor(LIVE);
    const mariaPhoto = mariaBubble.locator('img.avatar');
    await mariaPhoto.waitFor(LIVE);
    await expect.poll(() => mariaPhoto.evaluate((img: HTMLImageElement) => img.naturalWidth), LIVE).toBe(256);
    await mariaBubble.getByTestId('presence-dot').waitFor(LIVE);
    // A visible dot (not only the text for screen readers).
    expect((await mariaBubble.getByTestId('presence-dot').boundingBox())?.width).toBeGreaterThan(5);
    expect(await mariaBubble.getByTestId('presence-dot').textContent()).toBe(`${DEMO.maria.name} is online`);
    const garyBubble = bubbleOf(chloe.page, fromGary);
    await garyBubble.waitFor(LIVE);
    expect(await garyBubble.getByTestId('avatar-initials').innerText()).toBe('GF');
    expect(await garyBubble.locator('img.avatar').count()).toBe(0);
    await garyBubble.getByTestId('presence-dot').waitFor(LIVE);

    // Gary leaves: his dot goes away on Chloe's screen (user.presence.changed), Maria's stays.
    await gary.context.close();
    users.splice(users.indexOf(gary), 1);
    await garyBubble.getByTestId('presence-dot').waitFor({ state: 'detached', ...LIVE });
    expect(await mariaBubble.getByTestId('presence-dot').count()).toBe(1);
    await noSeriousViolations(chloe.page, 'message list');
    await screenshot(chloe.page, 'chat-avatars-messages-1280');

    // Mention suggestions: Maria with her photo, Gary with his initials.
    await composer(chloe.page).pressSequentially('@');
    const mentions = chloe.page.getByRole('listbox', { name: 'People to mention' });
    const mariaOption = mentions.getByRole('option').filter({ hasText: DEMO.maria.name });
    await mariaOption.waitFor(LIVE);
    expect(await mariaOption.locator('img.avatar').getAttribute('src')).toMatch(/\/photo\?v=/);
    const garyOption = mentions.getByRole('option').filter({ hasText: DEMO.gary.name });
    expect(await garyOption.getByTestId('avatar-initials').innerText()).toBe('GF');
    await noSeriousViolations(chloe.page, 'mention suggestions');
    await screenshot(chloe.page, 'chat-avatars-mentions-1280');
    await composer(chloe.page).fill('');

    // Slash commands: '/' lists the registered command with its arguments and description; Enter fills it.
    await composer(chloe.page).pressSequentially('/');
    const commands = chloe.page.getByRole('listbox', { name: 'Commands' });
    const remind = commands.getByRole('option').filter({ hasText: '/remind' });
    await remind.waitFor(LIVE);
    expect(await remind.innerText()).toContain('[when] [what]');
    expect(await remind.innerText()).toContain('Remind the chat about something');
    expect(await remind.getAttribute('aria-selected')).toBe('true');
    await noSeriousViolations(chloe.page, 'command suggestions');
    await screenshot(chloe.page, 'chat-avatars-commands-1280');
    await composer(chloe.page).press('Enter');
    expect(await composer(chloe.page).inputValue()).toBe('/remind ');
    await expect.poll(() => commands.count()).toBe(0);
    await composer(chloe.page).fill('');

    // Reactions detail: Maria likes her own message; Chloe opens "Who reacted" and sees her photo.
    await mariaBubble.hover();
    await mariaBubble.getByRole('button', { name: 'Add reaction' }).click();
    await chloe.page.getByRole('button', { name: 'Like', exact: true }).click();
    await mariaBubble.getByRole('button', { name: 'Like: 1' }).waitFor(LIVE);
    const onMaria = bubbleOf(maria.page, fromMaria);
    await onMaria.getByRole('button', { name: 'Like: 1' }).waitFor(LIVE);
    await onMaria.hover();
    await onMaria.getByRole('button', { name: 'Add reaction' }).click();
    await maria.page.getByRole('button', { name: 'Like', exact: true }).click();
    await mariaBubble.getByRole('button', { name: 'Like: 2' }).waitFor(LIVE);
    await mariaBubble.getByRole('button', { name: 'Who reacted' }).click();
    const reactions = chloe.page.getByRole('dialog', { name: 'Reactions' });
    const mariaReaction = reactions.getByRole('listitem').filter({ hasText: DEMO.maria.name });
    await mariaReaction.waitFor(LIVE);
    expect(await mariaReaction.locator('img.avatar').getAttribute('src')).toMatch(/\/photo\?v=/);
    const chloeReaction = reactions.getByRole('listitem').filter({ hasText: DEMO.chloe.name });
    expect(await chloeReaction.getByTestId('avatar-initials').innerText()).toBe('CB');
    await noSeriousViolations(chloe.page, 'reactions detail');
    await screenshot(chloe.page, 'chat-avatars-reactions-1280');
    await chloe.page.keyboard.press('Escape');
    await reactions.waitFor({ state: 'detached' });

    // Participants popup: Maria's photo and dot; Gary (gone) with initials and no dot.
    await chloe.page.getByRole('button', { name: '+ 1 more' }).click();
    const all = chloe.page.getByRole('dialog', { name: 'All Participants' });
    const mariaRow = all.getByRole('listitem').filter({ hasText: DEMO.maria.name });
    expect(await mariaRow.locator('img.avatar').getAttribute('src')).toMatch(/\/photo\?v=/);
    await mariaRow.getByTestId('presence-dot').waitFor(LIVE);
    const garyRow = all.getByRole('listitem').filter({ hasText: DEMO.gary.name });
    expect(await garyRow.getByTestId('avatar-initials').innerText()).toBe('GF');
    expect(await garyRow.getByTestId('presence-dot').count()).toBe(0);
    await noSeriousViolations(chloe.page, 'participants popup');
    await screenshot(chloe.page, 'chat-avatars-participants-1280');
    await all.getByRole('button', { name: 'Close' }).click();

    expect(pageProblems(maria)).toEqual([]);
    expect(pageProblems(chloe)).toEqual([]);
  });

  it('speaks Norwegian in the profile time zone, and shows photos and presence at 375 px', async () => {
    const maria = await user(DEMO.maria.email);
    const noah = await user(DEMO.noah.email, PHONE);
    await openChannel(maria.page, GROUP);

    // Noah sets a far time zone and Norwegian on his profile.
    await noah.page.goto('/app/profile');
    await noah.page.getByLabel('Time zone').selectOption(ZONE);
    await noah.page.getByLabel('Language').selectOption('nb');
    const saved = noah.page.waitForResponse((r) => r.url().endsWith('/api/functions/users-update') && r.ok());
    const reloaded = noah.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/me' && r.ok());
    await noah.page.getByRole('button', { name: 'Lagre' }).click();
    await Promise.all([saved, reloaded]);

    const text = `Tidssonesjekk ${stamp}`;
    await sendAndWait(maria.page, text);

    await noah.page.goto('/app');
    // The chat list at 375 px: each chat's picture (a person's avatar or the group icon) beside its title.
    await noah.page.locator('.channel-avatar').first().waitFor(LIVE);
    await noSeriousViolations(noah.page, 'chat list at 375 px');
    await screenshot(noah.page, 'chat-avatars-list-nb-375');
    await openChannelPhone(noah.page, GROUP);
    const bubble = bubbleOf(noah.page, text);
    await bubble.waitFor(LIVE);
    const time = bubble.locator('time').first();
    const iso = (await time.getAttribute('datetime')) ?? '';
    const inZone = (options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat('nb-NO', { ...options, timeZone: ZONE }).format(new Date(iso));
    // Norwegian 24-hour clock in the profile's zone, not the machine's.
    expect(await time.innerText()).toContain(inZone({ timeStyle: 'short' }));
    expect(await time.getAttribute('title')).toBe(inZone({ dateStyle: 'full', timeStyle: 'short' }));
    const machine = new Intl.DateTimeFormat('nb-NO', { timeStyle: 'short' }).format(new Date(iso));
    expect(inZone({ timeStyle: 'short' })).not.toBe(machine);
    // The day separator of today in that zone, in Norwegian.
    await noah.page.locator('.separator-date', { hasText: 'I dag' }).first().waitFor(LIVE);

    // At 375 px: Maria's photo and online dot on her message.
    await bubble.locator('img.avatar').waitFor(LIVE);
    await bubble.getByTestId('presence-dot').waitFor(LIVE);
    expect(await bubble.getByTestId('presence-dot').textContent()).toBe(`${DEMO.maria.name} er pålogget`);
    await noSeriousViolations(noah.page, 'Norwegian message list at 375 px');
    await screenshot(noah.page, 'chat-avatars-dates-nb-375');

    // '/' at 375 px, in Norwegian: the command with its arguments, within the screen.
    await melding(noah.page).pressSequentially('/');
    const remind = noah.page
      .getByRole('listbox', { name: 'Kommandoer' })
      .getByRole('option')
      .filter({ hasText: '/remind' });
    await remind.waitFor(LIVE);
    expect(await remind.innerText()).toContain('[when] [what]');
    const box = await remind.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    await noSeriousViolations(noah.page, 'commands at 375 px');
    await screenshot(noah.page, 'chat-avatars-commands-nb-375');
    await melding(noah.page).fill('');

    expect(pageProblems(maria)).toEqual([]);
    expect(pageProblems(noah)).toEqual([]);
  });
});

/** Opens a chat on a phone: the list is the start screen there; the composer's label is Norwegian. */
async function openChannelPhone(page: Page, title: string): Promise<void> {
  await page
    .getByRole('link')
    .filter({ has: page.getByText(title, { exact: true }) })
    .first()
    .click();
  await page.waitForURL((url) => url.pathname.startsWith('/app/chat/'));
  await melding(page).waitFor(LIVE);
}

/** The composer in Norwegian. */
function melding(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Melding' });
}
