import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InviteInfo, OrganizationMembers } from '@caseroom/protocol';
import { startTestServer, type TestServer } from './helpers/server.js';
import { call, get, ok, signUp, type Person } from './domain-support.js';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** Re-sending and cancelling invites, and the public invite card (issue 15), over HTTP. */
describe('managing invites and the invite card (issue 15)', () => {
  let server: TestServer;
  let admin: Person;
  let member: Person;
  let org: string;
  let otherOrg: string;
  let n = 0;
  const address = (label: string) => `${label}-${++n}-${Date.now()}@example.test`;

  const mailsTo = async (to: string): Promise<OutboxMail[]> =>
    ((await (await fetch(`${server.url}/dev/mail.json`)).json()) as OutboxMail[]).filter(
      (m) => m.to === to && m.subject.startsWith('You are invited'),
    );

  /** Invites `to` and answers the invite id and the token of its mailed link. */
  async function invite(to: string, type = 'member'): Promise<{ inviteId: string; token: string }> {
    const { inviteId } = await ok<{ inviteId: string }>(server, admin, 'organizations-inviteUser', {
      organizationId: org,
      email: to,
      type,
    });
    const [mail] = await mailsTo(to);
    const href = /https?:\/\/\S+/.exec(mail?.text ?? '')?.[0] ?? '';
    const target = new URL(new URL(href).searchParams.get('redirectTo') ?? '', server.url);
    return { inviteId, token: target.searchParams.get('invite') ?? '' };
  }

  /** Makes the invite look mailed an hour ago (re-sending waits a minute after the last mail). */
  const age = (inviteId: string) =>
    server.db.query(
      `UPDATE organization_invites SET created = now() - interval '1 hour', last_sent_at = NULL WHERE id = $1`,
      [inviteId],
    );

  const openInvites = async () =>
    OrganizationMembers.parse((await get(server, admin, `/api/organizations/${org}/members`)).body).invites;

  const auditOf = async (action: string, inviteId: string) =>
    (
      await server.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND entity_id = $2',
        [action, inviteId],
      )
    ).rows[0]?.n;

  beforeAll(async () => {
    server = await startTestServer();
    const sadmin = await signUp(server, 'sadmin', { sadmin: true });
    admin = await signUp(server, 'admin');
    member = await signUp(server, 'member');
    org = await ok<string>(server, sadmin, 'organizations-create', {
      name: 'Card org',
      adminEmail: admin.email,
    });
    await ok(server, admin, 'organizations-inviteUser', {
      organizationId: org,
      email: member.email,
      type: 'member',
    });
    // The member runs an organization of their own: admin there, not here.
    otherOrg = await ok<string>(server, sadmin, 'organizations-create', {
      name: 'Other',
      adminEmail: member.email,
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('shows the invite card for an open invite and 404 for anything else', async () => {
    const to = address('card');
    const { token, inviteId } = await invite(to, 'client');
    const card = await get(server, undefined, `/api/invite?token=${encodeURIComponent(token)}`);
    expect(card.status).toBe(200);
    expect(InviteInfo.parse(card.body)).toEqual({
      organization: 'Card org',
      inviter: 'admin person',
      type: 'client',
      email: to,
    });
    const forged = `${inviteId}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    for (const bad of [forged, inviteId, 'x', `${crypto.randomUUID()}.${token.split('.')[1]}`]) {
      const r = await get(server, undefined, `/api/invite?token=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(404);
      expect(r.body).toEqual({ error: { status: 'not-found', message: 'Invite not found' } });
    }
  });

  it('re-sends an open invite with the same link, not twice within a minute, audited', async () => {
    const to = address('resend');
    const { inviteId, token } = await invite(to);
    const soon = await call(server, admin, 'organizations-resendInvite', { organizationId: org, inviteId });
    expect(soon.status).toBe(429);
    expect(soon.body.error?.toast).toMatch(/less than a minute ago/);
    expect(await mailsTo(to)).toHaveLength(1);
    await age(inviteId);
    await ok(server, admin, 'organizations-resendInvite', { organizationId: org, inviteId });
    const mails = await mailsTo(to);
    expect(mails).toHaveLength(2);
    expect(mails[0]!.text).toContain(encodeURIComponent(token));
    expect(await auditOf('organization.invite.resend', inviteId)).toBe(1);
    // Just re-sent: the next waits again.
    const again = await call(server, admin, 'organizations-resendInvite', { organizationId: org, inviteId });
    expect(again.status).toBe(429);
  });

  it('cancels an invite: gone from the list, its link shows nothing and joins nobody, audited', async () => {
    const to = address('cancel');
    const { inviteId, token } = await invite(to);
    expect((await openInvites()).map((i) => i.id)).toContain(inviteId);
    await ok(server, admin, 'organizations-cancelInvite', { organizationId: org, inviteId });
    expect((await openInvites()).map((i) => i.id)).not.toContain(inviteId);
    expect((await get(server, undefined, `/api/invite?token=${encodeURIComponent(token)}`)).status).toBe(404);
    expect(await auditOf('organization.invite.cancel', inviteId)).toBe(1);
    const res = await server.app.product.auth.api.signUpEmail({
      body: { email: to, password: 'correct horse battery', name: 'Too late' },
    });
    const late: Person = { uid: res.user.id, token: res.token ?? '', email: to };
    const state = await ok<{ organizations: string[] }>(server, late, 'session-load', { invite: token });
    expect(state.organizations).toEqual([]);
    // A second cancel, or a re-send, of what is gone: not found. The address may be invited afresh.
    for (const name of ['organizations-cancelInvite', 'organizations-resendInvite']) {
      expect((await call(server, admin, name, { organizationId: org, inviteId })).status).toBe(404);
    }
    await ok(server, admin, 'organizations-inviteUser', {
      organizationId: org,
      email: address('again'),
      type: 'guest',
    });
  });

  it('refuses accepted invites, invites of another organization, non-admins and bad input', async () => {
    const to = address('accepted');
    const { inviteId, token } = await invite(to);
    await age(inviteId);
    const res = await server.app.product.auth.api.signUpEmail({
      body: { email: to, password: 'correct horse battery', name: 'Joiner' },
    });
    await ok(server, { uid: res.user.id, token: res.token ?? '', email: to }, 'session-load', {
      invite: token,
    });
    expect((await get(server, undefined, `/api/invite?token=${encodeURIComponent(token)}`)).status).toBe(404);
    for (const name of ['organizations-cancelInvite', 'organizations-resendInvite']) {
      expect((await call(server, admin, name, { organizationId: org, inviteId })).status).toBe(404);
    }
    const open = await invite(address('open'));
    await age(open.inviteId);
    const extraField = await call(server, admin, 'organizations-cancelInvite', {
      organizationId: org,
      ...open,
    });
    expect(extraField.status).toBe(400);
    const elsewhere = await call(server, member, 'organizations-cancelInvite', {
      organizationId: otherOrg,
      inviteId: open.inviteId,
    });
    expect(elsewhere.status).toBe(404);
    const asMember = await call(server, member, 'organizations-cancelInvite', {
      organizationId: org,
      inviteId: open.inviteId,
    });
    expect(asMember.status).toBe(403);
    expect((await openInvites()).map((i) => i.id)).toContain(open.inviteId);
    const bad = await call(server, admin, 'organizations-resendInvite', { organizationId: org });
    expect(bad.status).toBe(400);
  });

  it('limits invite-card lookups per address (30 a minute)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32 && !statuses.includes(429); i++) {
      statuses.push((await get(server, undefined, '/api/invite?token=guess.guess')).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 404)).toBe(true);
    const refused = await get(server, undefined, '/api/invite?token=guess.guess');
    expect(refused.body).toMatchObject({ error: { status: 'resource-exhausted' } });
  });
});
