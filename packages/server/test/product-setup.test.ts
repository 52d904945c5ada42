import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SetupResult, SetupStatus, MeResponse } from '@caseroom/protocol';
import { startTestServer, type TestServer } from './helpers/server.js';
import { call, countRows, get, type Person } from './domain-support.js';

/** First-run setup (issue 15): `GET/POST /api/setup` on an empty installation, over HTTP, on both databases. */

const PRODUCTION = {
  NODE_ENV: 'production',
  AUTH_SECRET: 'x'.repeat(32),
  CHAT_API_SECRET: 'y'.repeat(32),
  CHAT_API_KEY: 'prod-api-key',
};

const input = (n: number | string) => ({
  name: `First Person ${n}`,
  email: `first-${n}@example.test`,
  password: 'correct horse battery',
  organizationName: `Team ${n}`,
});

async function postSetup(server: TestServer, body: unknown) {
  const res = await fetch(`${server.url}/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

async function written(server: TestServer) {
  return {
    users: await countRows(server.db, '"user"'),
    organizations: await countRows(server.db, 'organizations'),
    memberships: await countRows(server.db, 'organization_users'),
    claims: await countRows(server.db, 'instance_setup'),
  };
}

const NOTHING = { users: 0, organizations: 0, memberships: 0, claims: 0 };

describe.each(['postgres', 'pglite'] as const)('first-run setup on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database, env: PRODUCTION });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses bad input and writes nothing', async () => {
    expect(SetupStatus.parse((await get(server, undefined, '/api/setup')).body)).toEqual({ needed: true });
    const bad = [
      { ...input('bad'), password: 'short' },
      { ...input('bad'), email: 'not an address' },
      { ...input('bad'), organizationName: '   ' },
      { ...input('bad'), name: '' },
      { ...input('bad'), sadmin: true },
      { name: 'only a name' },
      'not an object',
    ];
    for (const body of bad) {
      const r = await postSetup(server, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toMatchObject({ status: 'invalid-argument' });
    }
    expect(await written(server)).toEqual(NOTHING);
    expect(SetupStatus.parse((await get(server, undefined, '/api/setup')).body)).toEqual({ needed: true });
  });

  it('refuses a plain sign-up in production while setup is due', async () => {
    const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'early@example.test', password: 'correct horse battery', name: 'Early' }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('SETUP_NEEDED');
    expect(await written(server)).toEqual(NOTHING);
  });

  it('creates the super-admin, the organization with them as admin, and signs them in', async () => {
    const r = await postSetup(server, input('one'));
    expect(r.status).toBe(200);
    const result = SetupResult.parse(r.body);
    expect(r.headers.get('set-cookie')).toMatch(/caseroom\.session_token=/);
    const person: Person = { uid: result.user.id, token: result.token, email: result.user.email };
    const me = MeResponse.parse((await get(server, person, '/api/me')).body);
    expect(me.claims.sadmin).toBe(true);
    expect(me.policies.createOrganization).toBe(true);
    const orgs = (await get(server, person, '/api/organizations')).body as {
      id: string;
      name: string;
      users: Record<string, { type: string }>;
      policies: { manage: boolean };
    }[];
    expect(orgs).toHaveLength(1);
    expect(orgs[0]).toMatchObject({
      id: result.organizationId,
      name: 'Team one',
      policies: { manage: true },
    });
    expect(orgs[0]!.users[person.uid]).toEqual({ type: 'admin' });
    const session = await call(server, person, 'session-load', undefined);
    expect(session.body.result).toMatchObject({
      selectedOrganization: result.organizationId,
      isOrgAdmin: true,
    });
    const audit = await server.db.query<{ action: string }>(
      'SELECT action FROM audit_log WHERE organization_id = $1 ORDER BY id',
      [result.organizationId],
    );
    expect(audit.rows.map((a) => a.action)).toEqual(['organization.create', 'instance.setup']);
    expect(SetupStatus.parse((await get(server, undefined, '/api/setup')).body)).toEqual({ needed: false });
  });

  it('runs once only: a second setup answers 409 and writes nothing', async () => {
    const before = await written(server);
    const r = await postSetup(server, input('two'));
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ status: 'already-exists', message: 'Caseroom is already set up' });
    expect(await written(server)).toEqual(before);
    // Ordinary sign-up works again once the installation is set up.
    const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'later@example.test', password: 'correct horse battery', name: 'Later' }),
    });
    expect(res.status).toBe(200);
  });

  it('limits setup attempts per address like sign-up (20 a minute)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25 && !statuses.includes(429); i++)
      statuses.push((await postSetup(server, {})).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeLessThanOrEqual(21);
  });
});

describe.each(['postgres', 'pglite'] as const)('concurrent first-run setups on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lets exactly one of several concurrent attempts win', async () => {
    const attempts = await Promise.all([1, 2, 3, 4, 5].map((n) => postSetup(server, input(`race-${n}`))));
    const statuses = attempts.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    expect(await written(server)).toEqual({ users: 1, organizations: 1, memberships: 1, claims: 1 });
    const { rows } = await server.db.query<{ sadmin: boolean }>('SELECT sadmin FROM profiles');
    expect(rows).toEqual([{ sadmin: true }]);
  });
});
