import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { composer, DEMO, openChannel, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

const LIVE = { timeout: 10_000 };
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };

/** A query parameter of the page's URL (the home keeps its view there, replacing the history entry). */
const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

/** The home's search, sort and filter controls (the chat list beside it has filters of its own). */
const filters = (page: Page) => page.getByRole('search', { name: 'Find and sort case plans' });

/** Elements wider than the screen (or sticking out of it), as `tag.class` names, for an overflow assertion. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width)
      out.push(`document ${document.documentElement.scrollWidth}`);
    for (const el of Array.from(document.querySelectorAll('.home-page *'))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.right > width + 0.5 || r.left < -0.5)) out.push(`${el.tagName}.${el.className}`);
    }
    return out;
  });
}

/**
 * The case-plan home (issue 15) in real Chromium on the demo data: a staff member sees a client waiting after
 * the client writes, sorting and filters live in the URL, a client sees neither "New case plan" nor staff facts.
 */
describe('case-plan home', () => {
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

  async function open(email: string, viewport = DESKTOP): Promise<UserPage> {
    const user = await openUserPage(browser, server.url, { viewport });
    users.push(user);
    await signIn(user.page, email);
    return user;
  }

  async function home(page: Page, search = '') {
    await page.goto(`/app/caseplans${search}`);
    await page.getByRole('heading', { level: 2, name: 'All case plans' }).waitFor(LIVE);
  }

  const waitingGroup = (page: Page) => page.getByRole('list', { name: 'Clients waiting for an answer' });

  async function send(page: Page, text: string) {
    await composer(page).fill(text);
    await composer(page).press('Enter');
    await page.locator('[data-status="received"]', { hasText: text }).first().waitFor(LIVE);
  }

  it('shows Maria the client waiting once Chloe writes, with a link into the chat', async () => {
    const maria = await open(DEMO.maria.email);
    const chloe = await open(DEMO.chloe.email);

    // Maria answers Chloe: nobody waits.
    await openChannel(maria.page, DEMO.chloe.name);
    await send(maria.page, `All set for Thursday ${crypto.randomUUID().slice(0, 6)}`);
    await expect
      .poll(async () => {
        await home(maria.page);
        return waitingGroup(maria.page).count();
      }, LIVE)
      .toBe(0);

    // Chloe writes: the Bennett plan now waits for an answer.
    await openChannel(chloe.page, DEMO.maria.name);
    await send(chloe.page, `Can we move the session? ${crypto.randomUUID().slice(0, 6)}`);
    await expect
      .poll(async () => {
        await home(maria.page);
        return waitingGroup(maria.page).getByRole('link', { name: 'Bennett family plan' }).count();
      }, LIVE)
      .toBe(1);
    const card = waitingGroup(maria.page).getByRole('listitem').first();
    expect(await card.textContent()).toMatch(/Last message from the client: (now|\d+ minutes? ago)/);
    const row = maria.page.getByRole('list', { name: 'All case plans' }).getByRole('listitem').first();
    expect(await row.textContent()).toContain('Client waiting');
    expect(await seriousA11yViolations(maria.page)).toEqual([]);
    await screenshot(maria.page, 'caseplan-home-staff-1280');

    // "Reply in chat" opens the chat where Chloe wrote.
    await card.getByRole('link', { name: 'Reply in chat' }).click();
    await maria.page.waitForURL((url) => url.pathname.startsWith('/app/chat/'), LIVE);
    await maria.page.getByRole('heading', { level: 2, name: DEMO.chloe.name, exact: true }).waitFor(LIVE);
    expect(pageProblems(maria)).toEqual([]);
  });

  it('sorts and filters the plan list, and a link reproduces the view', async () => {
    const admin = await open(DEMO.admin.email);
    const { page } = admin;
    await home(page);
    const rows = page.getByRole('list', { name: 'All case plans' }).getByRole('link');
    const names = () => rows.allTextContents();
    expect((await names()).sort()).toEqual(['Bennett family plan', 'Brooks housing plan']);

    await filters(page).getByLabel('Sort by', { exact: true }).selectOption({ label: 'Name' });
    await expect.poll(() => param(page, 'sort')).toBe('name');
    expect(await names()).toEqual(['Bennett family plan', 'Brooks housing plan']);

    await filters(page).getByRole('searchbox', { name: 'Search' }).fill('brooks');
    await expect.poll(() => param(page, 'q')).toBe('brooks');
    expect(await names()).toEqual(['Brooks housing plan']);
    await page.getByRole('status').filter({ hasText: '1 case plan' }).waitFor();

    await filters(page).getByRole('searchbox', { name: 'Search' }).fill('');
    await filters(page).getByRole('checkbox', { name: 'Needs attention' }).check();
    await expect.poll(() => param(page, 'attention')).toBe('1');
    expect(await names()).toEqual(['Bennett family plan']);

    // The same URL in a fresh page shows the same view.
    const url = page.url();
    await page.goto(url);
    await page.getByRole('heading', { level: 2, name: 'All case plans' }).waitFor(LIVE);
    expect(await filters(page).getByRole('checkbox', { name: 'Needs attention' }).isChecked()).toBe(true);
    expect(await filters(page).getByLabel('Sort by', { exact: true }).inputValue()).toBe('name');
    expect(await names()).toEqual(['Bennett family plan']);

    await filters(page).getByLabel('Show', { exact: true }).selectOption({ label: 'Closed plans' });
    await page.getByText('No case plans match these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    expect(await rows.count()).toBe(2);
    expect(await page.getByRole('button', { name: 'New case plan' }).count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(pageProblems(admin)).toEqual([]);
  });

  it('shows a client their plan and their own upcoming event, no New case plan and no staff facts', async () => {
    const maria = await open(DEMO.maria.email);
    // Maria plans a visit tomorrow with Chloe's role invited, through the product API.
    const plans = (await (await maria.page.request.get('/api/caseplans')).json()) as {
      id: string;
      name: string;
      roles: Record<string, { id: string; client: boolean }>;
    }[];
    const bennett = plans.find((p) => p.name === 'Bennett family plan');
    const clientRole = Object.values(bennett?.roles ?? {}).find((r) => r.client);
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
    const created = await maria.page.request.post('/api/functions/events-create', {
      // The cookie session's CSRF check wants the app's own origin, as the browser sends it.
      headers: { origin: server.url },
      data: {
        data: {
          caseplanId: bennett?.id,
          title: 'Home visit',
          startsAt: tomorrow,
          attendees: { [clientRole?.id ?? '']: {} },
        },
      },
    });
    expect(created.status()).toBe(200);

    for (const viewport of [DESKTOP, PHONE]) {
      const chloe = await open(DEMO.chloe.email, viewport);
      const { page } = chloe;
      await home(page);
      await page
        .getByRole('list', { name: /Upcoming events/ })
        .getByRole('link', { name: 'Home visit' })
        .waitFor();
      expect(
        await page.getByRole('list', { name: 'All case plans' }).getByRole('link').allTextContents(),
      ).toEqual(['Bennett family plan']);
      expect(await page.getByRole('button', { name: 'New case plan' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Create case plan' }).count()).toBe(0);
      const text = (await page.locator('.home-page').textContent()) ?? '';
      for (const staffFact of ['Client waiting', 'People', 'Clients waiting', 'Not opened']) {
        expect(text).not.toContain(staffFact);
      }
      expect(await filters(page).getByRole('checkbox', { name: 'My plans' }).count()).toBe(0);
      expect(await overflowing(page)).toEqual([]);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, `caseplan-home-client-${viewport.width}`);
      expect(pageProblems(chloe)).toEqual([]);
    }
  });

  it('fits a phone for staff: no horizontal overflow, keyboard reaches the filters', async () => {
    const admin = await open(DEMO.admin.email, PHONE);
    const { page } = admin;
    await home(page);
    expect(await overflowing(page)).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'caseplan-home-staff-375');
    // Keyboard: the search box takes focus and typing filters.
    await filters(page).getByRole('searchbox', { name: 'Search' }).focus();
    await page.keyboard.type('bennett');
    await expect.poll(() => param(page, 'q')).toBe('bennett');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SELECT');
    expect(pageProblems(admin)).toEqual([]);
  });
});
