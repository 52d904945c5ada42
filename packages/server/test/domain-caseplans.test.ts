import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { addMember, call, get, ok, signUp, type Person } from './domain-support.js';

/** A case plan's life through the callables: create, teams, roles, people, custom fields, events, close. */
describe('case plans (issue 4)', () => {
  let server: TestServer;
  let sadmin: Person;
  let admin: Person;
  let member: Person;
  let client: Person;
  let org: string;
  beforeAll(async () => {
    server = await startTestServer();
    sadmin = await signUp(server, 'sadmin', { sadmin: true });
    admin = await signUp(server, 'admin');
    member = await signUp(server, 'member');
    client = await signUp(server, 'client');
    org = await ok<string>(server, sadmin, 'organizations-create', {
      name: 'Test org',
      adminEmail: admin.email,
    });
    await ok(server, admin, 'organizations-inviteUser', {
      organizationId: org,
      email: member.email,
      type: 'member',
    });
    await ok(server, admin, 'organizations-inviteUser', {
      organizationId: org,
      email: client.email,
      type: 'client',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs a case plan from creation to close and reopen', async () => {
    await ok(server, admin, 'settings-set', {
      organizationId: org,
      doc: 'caseplan-fields',
      schema: {
        type: 'object',
        properties: { goal: { type: 'string', maxLength: 50 } },
        additionalProperties: false,
      },
    });
    const id = await ok<string>(server, admin, 'caseplans-create', { organization: org, name: 'Plan A' });
    const team = await ok<string>(server, admin, 'caseplans-addTeam', { caseplanId: id, name: 'Care' });
    const role = await ok<string>(server, admin, 'caseplans-addRole', {
      caseplanId: id,
      name: 'Worker',
      teamId: team,
    });
    const clientRole = await ok<string>(server, admin, 'caseplans-addRole', {
      caseplanId: id,
      name: 'Client',
      teamId: team,
      client: true,
      userId: client.uid,
    });
    await ok(server, admin, 'caseplans-addUser', { caseplanId: id, roleId: role, userId: member.uid });
    await ok(server, member, 'caseplans-updateCustom', { caseplanId: id, custom: { goal: 'Housing' } });
    const bad = await call(server, member, 'caseplans-updateCustom', { caseplanId: id, custom: { goal: 7 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toMatch(/^Invalid custom fields: goal/);

    const eventId = await ok<string>(server, member, 'events-create', {
      caseplanId: id,
      title: 'Meeting',
      startsAt: '2030-01-01T10:00:00Z',
      attendees: { [clientRole]: { optional: true } },
    });
    await ok(server, client, 'events-rsvp', { caseplanId: id, eventId, response: 'yes' });
    const denied = await call(server, member, 'events-rsvp', { caseplanId: id, eventId, response: 'yes' });
    expect(denied.body.error?.message).toBe('User is not invited to this event');

    const plan = (await get(server, client, `/api/caseplans/${id}`)).body as Record<string, unknown>;
    expect(plan).toMatchObject({
      id,
      organization: org,
      custom: { goal: 'Housing' },
      activeUsers: expect.arrayContaining([member.uid, client.uid]),
      users: { [client.uid]: { role: clientRole, team, active: true, roleData: { client: true } } },
    });
    const events = (await get(server, client, `/api/caseplans/${id}/events`)).body as { rsvp: unknown }[];
    expect(events[0]?.rsvp).toMatchObject({ [client.uid]: { response: 'yes' } });

    await ok(server, admin, 'caseplans-close', { caseplanId: id, reason: 'Done' });
    const closed = await call(server, member, 'caseplans-update', { caseplanId: id, name: 'X' });
    expect(closed).toMatchObject({ status: 412, body: { error: { message: 'Caseplan is closed' } } });
    const after = (await get(server, admin, `/api/caseplans/${id}`)).body;
    expect(after).toMatchObject({
      closed: true,
      closing: { action: 'close', by: admin.uid, reason: 'Done' },
    });
    await ok(server, admin, 'caseplans-reopen', { caseplanId: id, reason: 'More work' });
    await ok(server, member, 'caseplans-update', { caseplanId: id, name: 'Plan A2' });

    const audit = (await get(server, admin, `/api/organizations/${org}/audit`)).body as {
      entries: { action: string }[];
    };
    const actions = audit.entries.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'caseplan.create',
        'team.add',
        'role.add',
        'caseplan.user.add',
        'caseplan.close',
        'caseplan.reopen',
        'setting.set',
      ]),
    );
    await expect(server.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    await expect(server.db.query('UPDATE audit_log SET action = $1', ['x'])).rejects.toThrow(/append-only/);
  });

  it('selects a case plan in the session and records lastOpenedAt', async () => {
    const id = await ok<string>(server, admin, 'caseplans-create', { organization: org, name: 'Plan S' });
    const team = await ok<string>(server, admin, 'caseplans-addTeam', { caseplanId: id, name: 'T' });
    const role = await ok<string>(server, admin, 'caseplans-addRole', {
      caseplanId: id,
      name: 'R',
      teamId: team,
    });
    const noRole = await call(server, member, 'session-selectCaseplan', { caseplanId: id });
    expect(noRole.body.error?.message).toBe('User not on caseplan');
    await ok(server, admin, 'caseplans-addUser', { caseplanId: id, roleId: role, userId: member.uid });
    await ok(server, admin, 'caseplans-updateRole', { caseplanId: id, roleId: role, userId: null });
    const vacated = await call(server, member, 'session-selectCaseplan', { caseplanId: id });
    expect(vacated.body.error?.message).toBe('User has no role on caseplan');
    await ok(server, admin, 'caseplans-updateRole', { caseplanId: id, roleId: role, userId: member.uid });
    const state = await ok<{ selectedCaseplan: string }>(server, member, 'session-selectCaseplan', {
      caseplanId: id,
    });
    expect(state.selectedCaseplan).toBe(id);
    const stats = (await get(server, admin, `/api/caseplans/${id}/stats`)).body as {
      user: string;
      lastOpenedAt: string;
    }[];
    expect(stats.find((s) => s.user === member.uid)?.lastOpenedAt).toBeTruthy();
    await addMember(server.db, org, member.uid, 'member');
  });
});
