import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { call, get, ok, signUp, type Person } from './domain-support.js';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Invites to addresses without an account: the mail, its link, and claiming through `session-load`. */
describe('organization invites by mail (issue 4)', () => {
  let server: TestServer;
  let admin: Person;
  let org: string;
  let n = 0;
  const address = (label: string) => `${label}-${++n}-${Date.now()}@example.test`;

  async function outbox(to: string): Promise<OutboxMail[]> {
    const res = await fetch(`${server.url}/dev/mail.json`);
    return ((await res.json()) as OutboxMail[]).filter((m) => m.to === to);
  }

  async function inviteMail(to: string): Promise<{ mail: OutboxMail; link: URL; token: string }> {
    const [mail] = (await outbox(to)).filter((m) => m.subject.startsWith('You are invited'));
    if (!mail) throw new Error(`no invite mail to ${to}`);
    const href = /https?:\/\/\S+/.exec(mail.text)?.[0];
    if (!href) throw new Error('no link in the invite mail');
    const link = new URL(href);
    const target = new URL(link.searchParams.get('redirectTo') ?? '', server.url);
    return { mail, link, token: target.searchParams.get('invite') ?? '' };
  }

  /** Signs up without confirming the address (as a person fresh from the invite link is). */
  async function signUpUnverified(email: string): Promise<Person> {
    const res = await server.app.product.auth.api.signUpEmail({
      body: { email, password: 'correct horse battery', name: 'Invitee' },
    });
    if (!res.token) throw new Error('sign-up gave no token');
    return { uid: res.user.id, token: res.token, email };
  }

  const organizationsOf = async (p: Person) =>
    ((await get(server, p, '/api/organizations')).body as { id: string }[]).map((o) => o.id);

  beforeAll(async () => {
    server = await startTestServer();
    const sadmin = await signUp(server, 'sadmin', { sadmin: true });
    admin = await signUp(server, 'admin');
    org = await ok<string>(server, sadmin, 'organizations-create', {
      name: 'Invite org',
      adminEmail: admin.email,
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('mails a sign-up link to the organization with an invite token', async () => {
    const to = address('new');
    const answer = await ok<{ userId: string | null; inviteId: string | null }>(
      server,
      admin,
      'organizations-inviteUser',
      { organizationId: org, email: to, type: 'member' },
    );
    expect(answer.userId).toBeNull();
    const { mail, link, token } = await inviteMail(to);
    expect(mail.subject).toBe('You are invited to Invite org on Caseroom');
    expect(mail.text).toContain('admin person has invited you to join Invite org');
    expect(mail.html).toContain('Join Invite org');
    expect(link.pathname).toBe('/');
    expect(link.searchParams.get('redirectTo')).toMatch(new RegExp(`^/app/organizations/${org}\\?invite=`));
    expect(token.startsWith(`${answer.inviteId}.`)).toBe(true);
  });

  it('lets the invitee who signed up from the link join at once; a forged token does not', async () => {
    const to = address('joiner');
    await ok(server, admin, 'organizations-inviteUser', { organizationId: org, email: to, type: 'client' });
    const { token } = await inviteMail(to);
    const invitee = await signUpUnverified(to);

    // Unverified and without the token (or with a forged one): the invite stays open.
    const plain = await ok<{ organizations: string[] }>(server, invitee, 'session-load', undefined);
    expect(plain.organizations).toEqual([]);
    const forged = await ok<{ organizations: string[] }>(server, invitee, 'session-load', {
      invite: `${token.split('.')[0]}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
    });
    expect(forged.organizations).toEqual([]);

    const joined = await ok<{ organizations: string[]; selectedOrganization: string | null }>(
      server,
      invitee,
      'session-load',
      { invite: token },
    );
    expect(joined.organizations).toEqual([org]);
    expect(joined.selectedOrganization).toBe(org);
    expect(await organizationsOf(invitee)).toEqual([org]);
    const { rows } = await server.db.query<{ type: string; active: boolean }>(
      'SELECT type, active FROM organization_users WHERE organization_id = $1 AND user_id = $2',
      [org, invitee.uid],
    );
    expect(rows).toEqual([{ type: 'client', active: true }]);
    // The invite is used up; loading again changes nothing.
    expect(
      (await ok<{ organizations: string[] }>(server, invitee, 'session-load', { invite: token }))
        .organizations,
    ).toEqual([org]);
    const audit = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'organization.invite.accept' AND entity_id = $1`,
      [invitee.uid],
    );
    expect(audit.rows[0]?.n).toBe(1);
  });

  it("refuses another address's token: the invite is for the mailbox it went to", async () => {
    const to = address('intended');
    await ok(server, admin, 'organizations-inviteUser', { organizationId: org, email: to, type: 'member' });
    const { token } = await inviteMail(to);
    const other = await signUpUnverified(address('other'));
    const state = await ok<{ organizations: string[] }>(server, other, 'session-load', { invite: token });
    expect(state.organizations).toEqual([]);
  });

  it('claims for a verified address without the link, and answers bad payloads with 400', async () => {
    const to = address('verified');
    await ok(server, admin, 'organizations-inviteUser', { organizationId: org, email: to, type: 'member' });
    const person = await signUpUnverified(to);
    await server.db.query('UPDATE "user" SET "emailVerified" = true WHERE id = $1', [person.uid]);
    const state = await ok<{ organizations: string[] }>(server, person, 'session-load', {});
    expect(state.organizations).toEqual([org]);
    const bad = await call(server, person, 'session-load', { invite: 7 });
    expect(bad.status).toBe(400);
    const extra = await call(server, person, 'session-load', { other: true });
    expect(extra.status).toBe(400);
  });

  it('mails nobody when the address already has an account (added at once)', async () => {
    const existing = await signUp(server, 'existing');
    const answer = await ok<{ userId: string | null }>(server, admin, 'organizations-inviteUser', {
      organizationId: org,
      email: existing.email,
      type: 'member',
    });
    expect(answer.userId).toBe(existing.uid);
    expect((await outbox(existing.email)).filter((m) => m.subject.startsWith('You are invited'))).toEqual([]);
  });

  it('mails the first admin of a new organization when they have no account', async () => {
    const sadmin = await signUp(server, 'sadmin2', { sadmin: true });
    const to = address('first-admin');
    const id = await ok<string>(server, sadmin, 'organizations-create', {
      name: 'Fresh org',
      adminEmail: to,
    });
    const { link } = await inviteMail(to);
    expect(link.searchParams.get('redirectTo')).toContain(`/app/organizations/${id}?invite=`);
  });
});
