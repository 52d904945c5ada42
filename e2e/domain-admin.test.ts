import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, screenshot, type UserPage } from './support/browser.js';
import { DEMO, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

const SCHEMA = JSON.stringify({
  type: 'object',
  properties: { goal: { type: 'string', title: 'Goal', maxLength: 100 } },
});

/** Issue 4 in the real UI: the demo org admin sets up and runs a case plan from start to close and reopen. */
describe('organization admin runs a case plan in real Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: UserPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    admin = await openUserPage(browser, server.url);
  });
  afterAll(async () => {
    await admin?.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  it('creates a case plan with a team, a role, a person, a custom field and an event, closes and reopens it', async () => {
    const { page } = admin;
    await signIn(page, DEMO.admin.email);

    // The organization's case-plan fields schema, from the admin page.
    await page.getByRole('link', { name: 'Organization admin' }).click();
    await page.getByRole('heading', { level: 1, name: /Organization: / }).waitFor();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const schemaBox = page.getByRole('textbox', { name: 'JSON Schema for caseplan-fields' });
    await schemaBox.fill(SCHEMA);
    await page
      .getByRole('form', { name: 'JSON Schema for caseplan-fields' })
      .getByRole('button', { name: 'Save schema' })
      .click();
    await page.getByRole('button', { name: 'Working…' }).waitFor({ state: 'detached' });
    // The audit log records the change (seen after a reload: the log is not live).
    await page.reload();
    await page.getByRole('listitem').filter({ hasText: 'setting.set' }).first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A new case plan.
    await page.getByRole('link', { name: 'Case plans' }).click();
    await page.getByLabel('Name').fill('E2E housing plan');
    await page.getByRole('button', { name: 'Create case plan' }).click();
    await page.getByRole('heading', { level: 1, name: 'E2E housing plan' }).waitFor();

    await page.getByLabel('Team name').fill('Care team');
    await page.getByRole('button', { name: 'Add team' }).click();
    await page.getByRole('listitem').filter({ hasText: 'Care team' }).first().waitFor();

    await page.getByLabel('Role name').fill('Case worker');
    await page.getByRole('button', { name: 'Add role' }).click();
    await page.getByRole('listitem').filter({ hasText: 'Case worker (Care team): vacant' }).waitFor();

    await page.getByLabel('Person', { exact: true }).selectOption({ label: DEMO.maria.name });
    await page.getByRole('button', { name: 'Add person' }).click();
    await page
      .getByRole('listitem')
      .filter({ hasText: `${DEMO.maria.name} — Case worker · Care team` })
      .waitFor();

    await page.getByLabel('Goal').fill('A permanent tenancy by spring');
    await page.getByRole('button', { name: 'Save fields' }).click();
    await expect.poll(() => page.getByLabel('Goal').inputValue()).toBe('A permanent tenancy by spring');

    await page.getByLabel('Title').fill('First visit');
    await page.getByLabel('Starts').fill('2030-03-01T10:00');
    await page.getByRole('button', { name: 'Add event' }).click();
    await page.getByRole('listitem').filter({ hasText: 'First visit' }).waitFor();

    // Edits: rename the team, edit the role and the event; the plan's chats and activity are shown.
    await page.getByText('Rename team Care team').click();
    await page
      .getByRole('form', { name: 'Rename team Care team' })
      .getByLabel('Team name')
      .fill('Housing team');
    await page
      .getByRole('form', { name: 'Rename team Care team' })
      .getByRole('button', { name: 'Save' })
      .click();
    await page.getByRole('listitem').filter({ hasText: 'Case worker (Housing team)' }).waitFor();
    await page.getByText('Edit role Case worker').click();
    const role = page.getByRole('form', { name: 'Edit role Case worker' });
    await role.getByLabel('Role name').fill('Key worker');
    await role.getByLabel('Person in this role').selectOption({ label: DEMO.maria.name });
    await role.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('listitem')
      .filter({ hasText: `Key worker (Housing team): ${DEMO.maria.name}` })
      .waitFor();
    await page.getByText('Edit event First visit').click();
    const event = page.getByRole('form', { name: 'Edit event First visit' });
    await event.getByLabel('Title').fill('Home visit');
    await event.getByLabel('Location').fill('Main street 1');
    await event.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Home visit' })
      .filter({ hasText: 'Main street 1' })
      .waitFor();
    await page.getByRole('heading', { level: 2, name: 'Chats' }).waitFor();
    await page.getByText('No chats for this case plan yet.').waitFor();
    await page.getByRole('heading', { level: 2, name: 'Activity' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Reason').fill('Tenancy secured');
    await page.getByRole('button', { name: 'Close case plan' }).click();
    await page.getByText('This case plan is closed and read-only.').waitFor();
    await page.getByText(/Reason: Tenancy secured/).waitFor();
    expect(await page.getByRole('button', { name: 'Add team' }).count()).toBe(0);
    await screenshot(page, 'domain-admin-closed');

    await page.getByRole('button', { name: 'Reopen case plan' }).click();
    await page.getByRole('button', { name: 'Add team' }).waitFor();
    expect(await page.getByText('This case plan is closed and read-only.').count()).toBe(0);
  });
});
