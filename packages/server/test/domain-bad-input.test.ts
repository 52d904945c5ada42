import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildWorld, freshPlan, type PlanFixture, type World } from './authz-fixtures.js';
import { call, countRows } from './domain-support.js';

/** Bad input: clear errors in the callable error shape, and nothing written (one transaction per call). */
describe('callables refuse bad input and write nothing', () => {
  let server: TestServer;
  let world: World;
  let plan: PlanFixture;
  const TABLES = [
    'caseplans',
    'teams',
    'roles',
    'caseplan_users',
    'events',
    'audit_log',
    'organization_invites',
  ];
  const snapshot = async () => Promise.all(TABLES.map((t) => countRows(server.db, t)));

  beforeAll(async () => {
    server = await startTestServer();
    world = await buildWorld(server);
    plan = await freshPlan(server.db, world.orgA, world.cast);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const cases: [string, string, (w: World, p: PlanFixture) => unknown, number, string | RegExp][] = [
    [
      'unknown case plan',
      'caseplans-update',
      () => ({ caseplanId: 'nope', name: 'x' }),
      404,
      'Caseplan not found',
    ],
    ['missing field', 'caseplans-addTeam', (_w, p) => ({ caseplanId: p.id }), 400, /^name: /],
    ['wrong type', 'caseplans-addTeam', (_w, p) => ({ caseplanId: p.id, name: 42 }), 400, /^name: /],
    ['unknown field', 'caseplans-update', (_w, p) => ({ caseplanId: p.id, colour: 'red' }), 400, /colour/],
    ['no data at all', 'caseplans-create', () => undefined, 400, /expected object/i],
    [
      'unknown role',
      'caseplans-addUser',
      (w, p) => ({ caseplanId: p.id, roleId: 'nope', userId: w.cast.teamOffCaseplan.uid }),
      404,
      'Role not found',
    ],
    [
      'role of another case plan',
      'caseplans-addUser',
      (w, p) => ({ caseplanId: p.id, roleId: w.planB.roleSpare }),
      404,
      'Role not found',
    ],
    [
      'role without a user',
      'caseplans-addUser',
      (_w, p) => ({ caseplanId: p.id, roleId: p.roleSpare }),
      412,
      'Role has no user',
    ],
    [
      'team of another case plan',
      'caseplans-addRole',
      (w, p) => ({ caseplanId: p.id, name: 'R', teamId: w.planB.team }),
      404,
      'Team not found',
    ],
    [
      'person outside the organization',
      'caseplans-addUser',
      (w, p) => ({ caseplanId: p.id, roleId: p.roleSpare, userId: w.cast.otherAdmin.uid }),
      412,
      'User is not part of the organization',
    ],
    [
      'removing someone not on the plan',
      'caseplans-removeUser',
      (w, p) => ({ caseplanId: p.id, userId: w.cast.teamOffCaseplan.uid }),
      412,
      'User not on caseplan',
    ],
    [
      'event of another case plan',
      'events-update',
      (w, p) => ({ caseplanId: p.id, eventId: w.planB.event, title: 'x' }),
      404,
      'Event not found',
    ],
    [
      'attendee role of another plan',
      'events-create',
      (w, p) => ({
        caseplanId: p.id,
        title: 'E',
        startsAt: '2030-01-01T00:00:00Z',
        attendees: { [w.planB.roleOn]: {} },
      }),
      404,
      'Role not found',
    ],
    [
      'end before start',
      'events-create',
      (_w, p) => ({
        caseplanId: p.id,
        title: 'E',
        startsAt: '2030-01-02T00:00:00Z',
        endsAt: '2030-01-01T00:00:00Z',
      }),
      400,
      /endsAt/,
    ],
    [
      'bad date',
      'events-create',
      (_w, p) => ({ caseplanId: p.id, title: 'E', startsAt: 'tomorrow' }),
      400,
      /startsAt/,
    ],
    [
      'schema that is not an object schema',
      'settings-set',
      (w) => ({ organizationId: w.orgA, doc: 'caseplan-fields', schema: { type: 'string' } }),
      400,
      /^Invalid schema/,
    ],
    [
      'schema ajv cannot compile',
      'settings-set',
      (w) => ({
        organizationId: w.orgA,
        doc: 'caseplan-fields',
        schema: { type: 'object', properties: { a: { type: 'nonsense' } } },
      }),
      400,
      /^Invalid schema/,
    ],
    [
      'unknown settings document',
      'settings-get',
      (w) => ({ organizationId: w.orgA, doc: 'colours' }),
      400,
      /^doc: /,
    ],
    [
      'last admin removed',
      'organizations-removeUser',
      (w) => ({ organizationId: w.orgA, userId: w.cast.orgAdmin.uid }),
      412,
      'An organization needs at least one admin',
    ],
    [
      'last admin demoted',
      'organizations-setUserType',
      (w) => ({ organizationId: w.orgA, userId: w.cast.orgAdmin.uid, type: 'member' }),
      412,
      'An organization needs at least one admin',
    ],
    [
      'invite of a member',
      'organizations-inviteUser',
      (w) => ({ organizationId: w.orgA, email: w.cast.client.email, type: 'client' }),
      409,
      'User is already part of the organization',
    ],
    // Text PostgreSQL refuses (issue 13 §6): a 500 before, now invalid-argument naming the field.
    [
      'NUL in a name',
      'caseplans-update',
      (_w, p) => ({ caseplanId: p.id, name: 'Plan\u0000' }),
      400,
      /^data\.name: must not contain NUL/,
    ],
    [
      'unpaired surrogate in custom data',
      'caseplans-updateCustom',
      (_w, p) => ({ caseplanId: p.id, custom: { note: 'a\uD800' } }),
      400,
      /^data\.custom\.note: must not contain NUL characters or unpaired/,
    ],
    [
      'NUL in a custom data key',
      'caseplans-create',
      (w) => ({ organization: w.orgA, name: 'P', custom: { 'k\u0000': 1 } }),
      400,
      /^data\.custom\.k.: name must not contain/,
    ],
    [
      'NUL in an id',
      'caseplans-addTeam',
      () => ({ caseplanId: 'a\u0000', name: 'T' }),
      400,
      /^data\.caseplanId: must not contain NUL/,
    ],
    [
      'NUL in an event title',
      'events-create',
      (_w, p) => ({ caseplanId: p.id, title: 'E\u0000', startsAt: '2030-01-01T00:00:00Z' }),
      400,
      /^data\.title: must not contain NUL/,
    ],
    [
      'a date past PostgreSQL and JavaScript',
      'events-create',
      (_w, p) => ({ caseplanId: p.id, title: 'E', startsAt: '+300000-01-01T00:00:00Z' }),
      400,
      /startsAt/,
    ],
    ['no contacts', 'chat-startChat', () => ({ contacts: [] }), 400, 'No contacts provided to start chat'],
    [
      'without the caller',
      'chat-startChat',
      (w) => ({ contacts: [w.cast.client.uid, w.cast.guest.uid] }),
      400,
      'Must include current user in chat',
    ],
    [
      'one distinct member',
      'chat-startChat',
      (w) => ({ contacts: [w.cast.orgAdmin.uid, w.cast.orgAdmin.uid] }),
      400,
      'A chat needs at least 2 distinct members',
    ],
  ];

  it.each(cases)('%s (%s) -> %i', async (_label, name, data, status, message) => {
    const before = await snapshot();
    const r = await call(server, world.cast.orgAdmin, name, data(world, plan));
    expect(r.status).toBe(status);
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(r.body.error?.message).toMatch(message);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses text PostgreSQL cannot store on every product route, better-auth included (a 500 before)', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify(body),
      });
    const answers = [
      await post('/api/auth/sign-up/email', {
        email: 'n\u0000@example.com',
        password: 'long-password-1',
        name: 'N',
      }),
      await post('/api/auth/sign-in/email', { email: 'n\u0000@example.com', password: 'long-password-1' }),
      await post('/api/auth/sign-in/magic-link', { email: 'n\uD800@example.com' }),
      await post('/api/auth/request-password-reset', { email: 'n\u0000@example.com' }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'INVALID_INPUT',
        message: /^email: must not contain NUL/,
      });
    }
    const auth = { authorization: `Bearer ${world.cast.orgAdmin.token}` };
    for (const path of ['/api/caseplans/a%00b', '/api/users/a%00b/photo']) {
      const read = await fetch(`${server.url}${path}`, { headers: auth });
      expect(read.status, path).toBe(400);
      expect(await read.json()).toMatchObject({
        error: { status: 'invalid-argument', message: /^path parameter id: must not contain NUL/ },
      });
    }
    const reset = await post('/api/password-reset/verify', { token: 'a\u0000b' });
    expect(reset.status).toBe(400);
    expect(await reset.json()).toMatchObject({
      error: { status: 'invalid-argument', message: /^token: must not contain NUL/ },
    });
  });

  it('rolls back a role created in the same call when seating its user fails', async () => {
    const before = await snapshot();
    const r = await call(server, world.cast.orgAdmin, 'caseplans-addRole', {
      caseplanId: plan.id,
      name: 'Half',
      teamId: plan.team,
      userId: world.cast.otherAdmin.uid,
    });
    expect(r.body.error?.message).toBe('User is not part of the organization');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a role without a team when seating someone', async () => {
    await server.db.query(
      `INSERT INTO roles (id, caseplan_id, name) VALUES ('teamless-role', $1, 'No team')`,
      [plan.id],
    );
    const r = await call(server, world.cast.orgAdmin, 'caseplans-addUser', {
      caseplanId: plan.id,
      roleId: 'teamless-role',
      userId: world.cast.teamOffCaseplan.uid,
    });
    expect(r).toMatchObject({ status: 412, body: { error: { message: 'Role has no team' } } });
  });
});
