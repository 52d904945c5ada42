import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, screenshot, type UserPage } from './support/browser.js';
import { DEMO, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

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

    // The organization's case-plan fields, defined with the form builder on the admin page.
    await page.getByRole('link', { name: 'Organization admin' }).click();
    await page.getByRole('heading', { level: 1, name: /Organization: / }).waitFor();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const builder = page.getByRole('group', { name: 'Case plan fields' });
    await builder.getByRole('button', { name: 'Add field' }).click();
    await builder.getByLabel('Field name').fill('Goal');
    await builder.getByRole('button', { name: 'Save Case plan fields' }).click();
    await builder.getByText('Stored as “goal”').waitFor();
    // The audit log records the change (seen after a reload: the log is not live).
    await page.reload();
    await page.getByRole('listitem').filter({ hasText: 'setting.set' }).first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A new case plan.
    await page.getByRole('link', { name: 'Case plans' }).click();
    // The list page first: the organization page's "Field name" must not take the plan's name.
    await page.getByRole('heading', { level: 1, name: 'Case plans' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('E2E housing plan');
    await page.getByRole('button', { name: 'Create case plan' }).click();
    await page.getByRole('heading', { level: 1, name: 'E2E housing plan' }).waitFor();

    await page.getByLabel('Team name').fill('Care team');
    await page.getByRole('button', { name: 'Add team' }).click();
    const care = page.getByRole('region', { name: 'Care team' });
    await care.waitFor();

    await care.getByRole('button', { name: 'Add a role to Care team' }).click();
    await care.getByLabel('Role name').fill('Case worker');
    await care.getByRole('button', { name: 'Add role' }).click();
    await care.getByRole('listitem').filter({ hasText: 'Case worker' }).getByText('Vacant').waitFor();

    const addPerson = page.getByRole('form', { name: 'Add a person to a role' });
    await addPerson.getByLabel('Person', { exact: true }).selectOption({ label: DEMO.maria.name });
    await addPerson.getByLabel('Role', { exact: true }).selectOption({ label: 'Case worker — vacant' });
    await addPerson.getByRole('button', { name: 'Add person' }).click();
    await care.getByRole('listitem').filter({ hasText: 'Case worker' }).getByText(DEMO.maria.name).waitFor();

    await page.getByLabel('Goal').fill('A permanent tenancy by spring');
    await page.getByRole('button', { name: 'Save fields' }).click();
    await expect.poll(() => page.getByLabel('Goal').inputValue()).toBe('A permanent tenancy by spring');

    await page.getByLabel('Title').fill('First visit');
    await page.getByLabel('Starts').fill('2030-03-01T10:00');
    await page.getByRole('button', { name: 'Add event' }).click();
    await page.getByRole('listitem').filter({ hasText: 'First visit' }).waitFor();

    // Edits: rename the team, edit the role and the event; the plan's chats and activity are shown.
    await page.getByRole('button', { name: 'Rename team Care team' }).click();
    await page
      .getByRole('form', { name: 'Rename team Care team' })
      .getByLabel('Team name')
      .fill('Housing team');
    await page
      .getByRole('form', { name: 'Rename team Care team' })
      .getByRole('button', { name: 'Save' })
      .click();
    const housing = page.getByRole('region', { name: 'Housing team' });
    await housing.getByRole('listitem').filter({ hasText: 'Case worker' }).waitFor();
    await housing.getByRole('button', { name: 'Edit role Case worker' }).click();
    const role = page.getByRole('form', { name: 'Edit role Case worker' });
    await role.getByLabel('Role name').fill('Key worker');
    await role.getByLabel('Person in this role').selectOption({ label: DEMO.maria.name });
    await role.getByRole('button', { name: 'Save' }).click();
    await housing
      .getByRole('listitem')
      .filter({ hasText: 'Key worker' })
      .getByText(DEMO.maria.name)
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
