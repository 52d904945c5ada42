import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, uniqueEmail } from './support/accounts.js';
import { launchBrowser, openUserPage, type UserPage } from './support/browser.js';
import { DEMO, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** Issue 4: an org admin invites an address with no account; the invitee signs up from the mailed link. */
describe('organization invite by mail in real Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: UserPage;
  let invitee: UserPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    [admin, invitee] = await Promise.all([
      openUserPage(browser, server.url),
      openUserPage(browser, server.url),
    ]);
  });
  afterAll(async () => {
    await admin?.context.close().catch(() => undefined);
    await invitee?.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  /** The invite mail to `to` in the dev outbox (it is sent after the call commits). */
  async function inviteLink(to: string): Promise<string> {
    let link: string | undefined;
    await expect
      .poll(
        async () => {
          const mails = (await (await fetch(`${server.url}/dev/mail.json`)).json()) as OutboxMail[];
          const mail = mails.find((m) => m.to === to && m.subject.startsWith('You are invited'));
          link = mail ? /https?:\/\/\S+/.exec(mail.text)?.[0] : undefined;
          return link;
        },
        { timeout: 10_000 },
      )
      .toBeTruthy();
    return link!;
  }

  it('the invitee signs up from the link and lands in the organization', async () => {
    const email = uniqueEmail('invitee');
    const { page } = admin;
    await signIn(page, DEMO.admin.email);
    await page.getByRole('link', { name: 'Organization admin' }).click();
    const heading = page.getByRole('heading', { level: 1, name: /Organization: / });
    await heading.waitFor();
    const orgTitle = (await heading.textContent()) ?? '';
    const invite = page.getByRole('form', { name: 'Invite someone' });
    await invite.getByLabel('E-mail').fill(email);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Invitation sent to ${email}.` })
      .waitFor();
    await page
      .getByRole('listitem')
      .filter({ hasText: email })
      .filter({ hasText: 'as team member' })
      .waitFor();

    const link = await inviteLink(email);
    const target = new URL(new URL(link).searchParams.get('redirectTo') ?? '', server.url);
    expect(target.pathname).toMatch(/^\/app\/organizations\//);

    const p = invitee.page;
    await p.goto(link);
    // The invite card says who invited whom to which organization; the sign-up form comes first, pre-filled.
    await p.getByRole('heading', { name: /^You are invited to / }).waitFor();
    await p.getByText('You join as a team member', { exact: false }).waitFor();
    expect(await p.getByLabel('E-mail').inputValue()).toBe(email);
    await p.getByLabel('Your name').fill('Ingrid Invitee');
    await p.getByLabel('Password').fill('a long enough password');
    await p.getByRole('button', { name: 'Create account' }).click();

    // In the organization, and the token left the address bar.
    await p.waitForURL((url) => url.pathname === target.pathname && !url.searchParams.has('invite'));
    await p.getByRole('heading', { level: 1, name: orgTitle }).waitFor();
    await p.getByText('Your place in this organization: team member.').waitFor();
    await checkPage(p, 'domain-invite-joined');

    // The admin sees the new member; the invite is no longer open.
    await page.reload();
    // (The audit log names the invitee too; the member entry is the one with the address.)
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Ingrid Invitee' })
      .filter({ hasText: email })
      .waitFor();
    expect(
      await page
        .getByRole('listitem')
        .filter({ hasText: email })
        .filter({ hasText: 'as team member' })
        .count(),
    ).toBe(0);
  });
});
