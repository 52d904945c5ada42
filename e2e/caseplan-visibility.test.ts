import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, screenshot } from './support/browser.js';
import { DEMO, DEMO_PASSWORD, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

const PLAN = 'Bennett family plan';
const STAFF_LABEL = 'Risk assessment';
const STAFF_VALUE = 'Eviction notice received; check in twice a week';
const SHARED_VALUE = 'Stable school attendance and weekly family sessions';
const SCHEMA = {
  type: 'object',
  properties: {
    goal: { type: 'string', title: 'Goal' },
    risk: { type: 'string', title: STAFF_LABEL, 'x-visibility': 'staff' },
  },
  required: ['goal'],
};

async function tokenOf(baseUrl: string, email: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  return ((await res.json()) as { token: string }).token;
}

async function callAs(baseUrl: string, token: string, name: string, data: unknown): Promise<unknown> {
  const res = await fetch(`${baseUrl}/api/functions/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ data }),
  });
  if (res.status !== 200) throw new Error(`${name}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { result: unknown }).result;
}

/** Waits for the case plan page with its custom fields loaded. */
async function openPlan(page: Page, planId: string): Promise<void> {
  await page.goto(`/app/caseplans/${planId}`);
  await page.getByRole('heading', { level: 1, name: PLAN }).waitFor();
  // An editor gets the form (label "Goal * (required)"), a client or guest the values as text ("Goal").
  await page.getByText(/^Goal/).first().waitFor();
}

/**
 * Issue 15: staff-only custom fields are not in the answers for clients and guests, so the page cannot show them;
 * clients and guests get no "Organization admin" link. The demo organization marks one field staff-only.
 */
describe('staff-only fields and navigation in real Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let planId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const admin = await tokenOf(server.url, DEMO.admin.email);
    const plans = (await (
      await fetch(`${server.url}/api/caseplans`, { headers: { authorization: `Bearer ${admin}` } })
    ).json()) as { id: string; name: string; organization: string }[];
    const plan = plans.find((p) => p.name === PLAN);
    if (!plan) throw new Error('demo plan missing');
    planId = plan.id;
    await callAs(server.url, admin, 'settings-set', {
      organizationId: plan.organization,
      doc: 'caseplan-fields',
      schema: SCHEMA,
    });
    await callAs(server.url, admin, 'caseplans-updateCustom', {
      caseplanId: planId,
      custom: { risk: STAFF_VALUE },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of [1280, 375]) {
    for (const who of ['chloe', 'gary'] as const) {
      const role = who === 'chloe' ? 'client' : 'guest';
      it(`the ${role} sees neither the staff-only field nor "Organization admin" at ${width} px`, async () => {
        const user = await openUserPage(browser, server.url, { viewport: { width, height: 900 } });
        const { page } = user;
        try {
          await signIn(page, DEMO[who].email);
          // The navigation (at /app the sidebar shows at every width).
          await page.getByRole('link', { name: 'Case plans' }).first().waitFor();
          await page.getByRole('navigation', { name: 'Chats' }).waitFor();
          expect(await page.getByRole('link', { name: 'Organization admin' }).count()).toBe(0);
          await screenshot(page, `visibility-${role}-nav-${width}`);
          expect(await seriousA11yViolations(page)).toEqual([]);

          await openPlan(page, planId);
          // Read-only for them: the value as text, no form.
          await page.getByText(SHARED_VALUE, { exact: true }).waitFor();
          expect(await page.getByRole('button', { name: 'Save fields' }).count()).toBe(0);
          const text = await page.locator('main').innerText();
          expect(text).not.toContain(STAFF_LABEL);
          expect(await page.content()).not.toContain(STAFF_VALUE);
          expect(await page.getByLabel(STAFF_LABEL).count()).toBe(0);
          expect(await page.getByRole('link', { name: 'Organization admin' }).count()).toBe(0);
          await page.getByRole('heading', { name: 'Case plan fields' }).scrollIntoViewIfNeeded();
          await screenshot(page, `visibility-${role}-plan-${width}`);
          expect(await seriousA11yViolations(page)).toEqual([]);
        } finally {
          await user.context.close();
        }
      });
    }

    it(`a team member sees the staff-only field at ${width} px; an admin also sees "Organization admin"`, async () => {
      const maria = await openUserPage(browser, server.url, { viewport: { width, height: 900 } });
      try {
        await signIn(maria.page, DEMO.maria.email);
        await openPlan(maria.page, planId);
        expect(await maria.page.getByLabel(STAFF_LABEL).inputValue()).toBe(STAFF_VALUE);
        await maria.page.getByRole('heading', { name: 'Case plan fields' }).scrollIntoViewIfNeeded();
        await screenshot(maria.page, `visibility-staff-plan-${width}`);
        expect(await seriousA11yViolations(maria.page)).toEqual([]);
      } finally {
        await maria.context.close();
      }
      const admin = await openUserPage(browser, server.url, { viewport: { width, height: 900 } });
      try {
        await signIn(admin.page, DEMO.admin.email);
        await admin.page.getByRole('link', { name: 'Organization admin' }).waitFor();
        await screenshot(admin.page, `visibility-admin-nav-${width}`);
        await openPlan(admin.page, planId);
        expect(await admin.page.getByLabel(STAFF_LABEL).inputValue()).toBe(STAFF_VALUE);
      } finally {
        await admin.context.close();
      }
    });
  }
});
