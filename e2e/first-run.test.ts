import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, uniqueEmail } from './support/accounts.js';
import { launchBrowser, openUserPage, pageProblems, type UserPage } from './support/browser.js';
import { composer } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';
import { startSmtp, type SmtpCatcher } from './support/smtp.js';

const LIVE = { timeout: 15_000 };
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 375, height: 740 };
const PASSWORD = 'a long enough password';
const ORG = 'Riverside Family Services';

/**
 * Issue 15, Done-when: the whole first run of a fresh production install on an empty database, in Chromium.
 * Setup (account + organization), invitations by mail through a real SMTP server (production has no dev
 * outbox), each invitee signs up from their link, the admin makes a case plan with them, and they chat.
 */
describe('first run on an empty production install', () => {
  let smtp: SmtpCatcher;
  let server: RunningServer;
  let browser: Browser;
  const users: UserPage[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    [server, browser] = await Promise.all([
      startServer({
        env: {
          NODE_ENV: 'production',
          SEED_DEMO: '0',
          SMTP_URL: smtp.url,
          MAIL_FROM: 'caseroom@example.test',
          AUTH_SECRET: crypto.randomBytes(24).toString('hex'),
          CHAT_API_SECRET: crypto.randomBytes(24).toString('hex'),
          CHAT_API_KEY: 'first-run-key',
        },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    for (const user of users) await user.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  async function open(viewport = DESKTOP): Promise<UserPage> {
    const user = await openUserPage(browser, server.url, { viewport });
    users.push(user);
    return user;
  }

  /** Invites `email` as `type` from the organization page, and answers the link of the mail that arrives. */
  async function invite(page: Page, email: string, type: string): Promise<string> {
    const since = smtp.count();
    const form = page.getByRole('form', { name: 'Invite someone' });
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Invite as').selectOption({ label: type });
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Invitation sent to ${email}.` })
      .waitFor(LIVE);
    await page
      .getByRole('listitem')
      .filter({ hasText: email })
      .filter({ hasText: `as ${type}` })
      .waitFor();
    const mail = await smtp.waitFor(email, { subject: /You are invited to/, since });
    expect(mail.subject).toBe(`You are invited to ${ORG} on Caseroom`);
    const link = mail.links[0];
    if (!link) throw new Error(`no link in the invite mail:\n${mail.text}`);
    return link;
  }

  /** Follows a mailed invite link: the card says who and as what; sign-up lands in the organization. */
  async function join(
    link: string,
    name: string,
    email: string,
    as: RegExp,
    shot: string,
  ): Promise<UserPage> {
    const user = await open();
    const { page } = user;
    await page.goto(link);
    await page.getByRole('heading', { name: `You are invited to ${ORG}` }).waitFor(LIVE);
    await page.getByText(`Ada Admin invited you to join ${ORG} on Caseroom.`).waitFor();
    await page.getByText(as).waitFor();
    // Fresh from an invite: the sign-up form, with the invited address filled in.
    expect(await page.getByLabel('E-mail').inputValue()).toBe(email);
    await checkPage(page, `${shot}-invite-card-1280`);
    await page.getByLabel('Your name').fill(name);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/app/organizations/') && !url.search, LIVE);
    await page.getByRole('heading', { level: 1, name: `Organization: ${ORG}` }).waitFor(LIVE);
    return user;
  }

  it('sets up, invites by mail, makes a case plan and the invitees chat', async () => {
    // A fresh install sends everyone to setup; at 375 px too.
    const phone = await open(PHONE);
    await phone.page.goto('/');
    await phone.page.waitForURL((url) => url.pathname === '/setup', LIVE);
    await phone.page.getByRole('heading', { level: 1, name: 'Set up Caseroom' }).waitFor();
    await checkPage(phone.page, 'first-run-setup-375');

    const admin = await open();
    const { page } = admin;
    await page.goto('/app');
    await page.waitForURL((url) => url.pathname === '/setup', LIVE);
    await page.getByRole('heading', { level: 1, name: 'Set up Caseroom' }).waitFor();
    await checkPage(page, 'first-run-setup-1280');
    const adminEmail = uniqueEmail('ada');
    await page.getByLabel('Your name').fill('Ada Admin');
    await page.getByLabel('Your e-mail').fill(adminEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Organization name').fill(ORG);
    await page.getByRole('button', { name: 'Create account and organization' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/app/organizations/'), LIVE);
    await page.getByRole('heading', { level: 1, name: `Organization: ${ORG}` }).waitFor(LIVE);
    await page.getByRole('heading', { name: 'Create an organization' }).waitFor();
    await checkPage(page, 'first-run-organization-1280');

    // Setup happens once: the phone now finds it done.
    await phone.page.reload();
    await phone.page.getByText('Caseroom is already set up.').waitFor(LIVE);

    const colleagueEmail = uniqueEmail('colleague');
    const clientEmail = uniqueEmail('client');
    const colleagueLink = await invite(page, colleagueEmail, 'team member');
    const clientLink = await invite(page, clientEmail, 'client');
    await checkPage(page, 'first-run-invited-1280');
    // The invite card on a phone (looking does not use the invite up).
    await phone.page.goto(clientLink);
    await phone.page.getByRole('heading', { name: `You are invited to ${ORG}` }).waitFor(LIVE);
    await phone.page.getByText(/You join as a client/).waitFor();
    await checkPage(phone.page, 'first-run-invite-card-375');

    const colleague = await join(
      colleagueLink,
      'Cole Colleague',
      colleagueEmail,
      /You join as a team member/,
      'first-run-colleague',
    );
    await colleague.page.getByText('Your place in this organization: team member.').waitFor();
    const client = await join(
      clientLink,
      'Cleo Client',
      clientEmail,
      /You join as a client/,
      'first-run-client',
    );

    // Both joined: no open invitations left.
    await page.reload();
    await page.getByText('No open invitations.').waitFor(LIVE);
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Cole Colleague' })
      .filter({ hasText: colleagueEmail })
      .waitFor();

    // The admin makes a case plan with a team, a staff role and a client role, and puts both in it.
    await page.getByRole('link', { name: 'Case plans' }).click();
    const newPlan = page.getByRole('form', { name: 'New case plan' });
    await newPlan.getByLabel('Name', { exact: true }).fill('First steps');
    await newPlan.getByRole('button', { name: 'Create case plan' }).click();
    await page.getByRole('heading', { level: 1, name: 'First steps' }).waitFor(LIVE);
    const addTeam = page.getByRole('form', { name: 'Add team' });
    await addTeam.getByLabel('Team name').fill('Care team');
    await addTeam.getByRole('button', { name: 'Add team' }).click();
    const team = page.getByRole('region', { name: 'Care team' });
    await team.waitFor(LIVE);
    // Roles are added in their team's card; people through "Add a person to a role" (issue 15, edited in place).
    const addRole = async (name: string, client: boolean) => {
      await team.getByRole('button', { name: 'Add a role to Care team' }).click();
      const form = page.getByRole('form', { name: 'Add a role to Care team' });
      await form.getByLabel('Role name').fill(name);
      if (client) await form.getByLabel('This role is for the client').check();
      await form.getByRole('button', { name: 'Add role' }).click();
      await team.getByRole('listitem').filter({ hasText: name }).getByText('Vacant').waitFor(LIVE);
    };
    await addRole('Case worker', false);
    await addRole('Family', true);
    const addPerson = async (name: string, role: string) => {
      const form = page.getByRole('form', { name: 'Add a person to a role' });
      await form.getByLabel('Person', { exact: true }).selectOption({ label: name });
      await form.getByLabel('Role', { exact: true }).selectOption({ label: `${role} — vacant` });
      await form.getByRole('button', { name: 'Add person' }).click();
      await team.getByRole('listitem').filter({ hasText: role }).getByText(name).waitFor(LIVE);
    };
    await addPerson('Cole Colleague', 'Case worker');
    await addPerson('Cleo Client', 'Family');
    await checkPage(page, 'first-run-caseplan-1280');

    // The colleague opens the app (the plan is now theirs) and starts a chat with the client.
    const cp = colleague.page;
    await cp.goto('/app');
    await cp.getByRole('button', { name: 'Start a new chat' }).click(LIVE);
    const dialog = cp.getByRole('dialog', { name: 'Start a new chat' });
    await dialog.getByLabel('Find a contact').fill('Cleo');
    await dialog.getByRole('checkbox', { name: /Cleo Client/ }).check();
    await dialog.getByRole('button', { name: 'Start chat' }).click();
    await cp.waitForURL((url) => url.pathname.startsWith('/app/chat/'), LIVE);
    const hello = `Welcome, Cleo ${crypto.randomUUID().slice(0, 6)}`;
    await composer(cp).fill(hello);
    await composer(cp).press('Enter');
    await cp.locator('[data-status="received"]', { hasText: hello }).first().waitFor(LIVE);

    // The client sees it and answers; the colleague sees the answer live.
    const kp = client.page;
    await kp.goto('/app');
    const chatLink = kp
      .getByRole('navigation', { name: 'Chats' })
      .getByRole('link')
      .filter({ hasText: hello });
    await chatLink.first().waitFor(LIVE);
    await chatLink.first().click();
    await kp.getByText(hello, { exact: true }).first().waitFor(LIVE);
    const reply = `Thank you, Cole ${crypto.randomUUID().slice(0, 6)}`;
    await composer(kp).fill(reply);
    await composer(kp).press('Enter');
    await kp.locator('[data-status="received"]', { hasText: reply }).first().waitFor(LIVE);
    await cp.getByText(reply, { exact: true }).first().waitFor(LIVE);
    await checkPage(cp, 'first-run-chat-colleague-1280');
    await checkPage(kp, 'first-run-chat-client-1280');

    // The super-admin creates a second organization and names its admin, who is invited by mail.
    const northAdmin = uniqueEmail('north');
    const since = smtp.count();
    await page.getByRole('link', { name: 'Organization admin' }).click();
    const create = page.getByRole('form', { name: 'Create an organization' });
    await create.getByLabel('Organization name').fill('Northside Youth');
    await create.getByLabel("Administrator's e-mail (optional)").fill(northAdmin);
    await create.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('status').filter({ hasText: 'Northside Youth was created.' }).waitFor(LIVE);
    await smtp.waitFor(northAdmin, { subject: /You are invited to Northside Youth/, since });
    await page.getByRole('link', { name: 'Open Northside Youth' }).click();
    await page.getByRole('heading', { level: 1, name: 'Organization: Northside Youth' }).waitFor(LIVE);
    await page
      .getByRole('listitem')
      .filter({ hasText: northAdmin })
      .filter({ hasText: 'as administrator' })
      .waitFor();
    expect(await page.getByText('Organization was not loaded into the session').count()).toBe(0);
    await checkPage(page, 'first-run-second-organization-1280');

    expect(pageProblems(admin)).toEqual([]);
    expect(pageProblems(colleague)).toEqual([]);
    expect(pageProblems(client)).toEqual([]);
  });

  it('someone who signs up without an invitation is told to ask for one (1280 and 375 px)', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const user = await open(viewport);
      const { page } = user;
      const email = uniqueEmail('stranger');
      await page.goto('/');
      await page.getByRole('button', { name: 'New to Caseroom? Create an account' }).click();
      await page.getByLabel('Your name').fill('Sam Stranger');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Ask for an invitation' }).waitFor(LIVE);
      await page.getByText(`Your account (${email}) is ready`).waitFor();
      // Nothing of the app's empty forms.
      expect(await page.getByRole('button', { name: 'Start a new chat' }).count()).toBe(0);
      await checkPage(page, `first-run-no-invitation-${viewport.width}`);
      await page.getByRole('button', { name: 'Check again' }).click();
      await page.getByText(`No invitation for ${email} yet.`).waitFor(LIVE);
      expect(pageProblems(user)).toEqual([]);
    }
  });
});
