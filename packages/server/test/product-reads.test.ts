import type { Caseplan, Organization } from '@caseroom/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoSeed } from '../src/product/index.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const PASSWORD = 'caseroom-demo';

/** Reads of organizations and case plans against the demo data, and the demo seed itself. */
describe('product reads on the demo data', () => {
  let server: TestServer;
  let seed: DemoSeed;
  const tokens = new Map<string, string>();

  async function signIn(email: string, password = PASSWORD): Promise<string> {
    const cached = tokens.get(email);
    if (cached) return cached;
    const res = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    tokens.set(email, token);
    return token;
  }

  async function get<T>(email: string, path: string, status = 200): Promise<T> {
    const res = await fetch(server.url + path, {
      headers: { authorization: `Bearer ${await signIn(email)}` },
    });
    expect(res.status, `${email} GET ${path}`).toBe(status);
    return (await res.json()) as T;
  }

  beforeAll(async () => {
    server = await startTestServer({ env: { SEED_DEMO: '1' } });
    // A second run finds everything in place (the first ran in startTestServer).
    seed = await server.app.product.seedDemo();
    // A stranger with an organization and a case plan of their own.
    const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'stranger@example.test', password: PASSWORD, name: 'Stranger' }),
    });
    const { user } = (await res.json()) as { user: { id: string } };
    await server.db.query(`INSERT INTO organizations (id, name) VALUES ('org-other', 'Elsewhere')`);
    await server.db.query(
      `INSERT INTO organization_users (organization_id, user_id, type) VALUES ('org-other', $1, 'admin')`,
      [user.id],
    );
    await server.db.query(
      `INSERT INTO caseplans (id, organization_id, name, created_by) VALUES ('cp-other', 'org-other', 'Theirs', $1)`,
      [user.id],
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is idempotent: a second seed answers the same ids and duplicates nothing', async () => {
    const again = await server.app.product.seedDemo();
    expect(again).toEqual(seed);
    const counts = await server.db.query<{ users: number; caseplans: number; members: number }>(
      `SELECT (SELECT count(*) FROM "user" WHERE email LIKE '%@caseroom.test')::int AS users,
              (SELECT count(*) FROM caseplans WHERE organization_id = $1)::int AS caseplans,
              (SELECT count(*) FROM organization_users WHERE organization_id = $1)::int AS members`,
      [seed.organizationId],
    );
    expect(counts.rows[0]).toEqual({ users: 5, caseplans: 2, members: 5 });
  });

  it('seeds once when several nodes start together', async () => {
    const runs = await Promise.all([1, 2, 3].map(() => server.app.product.seedDemo()));
    for (const run of runs) expect(run).toEqual(seed);
  });

  it('creates the demo chats through the chat service', async () => {
    const [group] = await server.app.chat.server.queryChannels({ cid: seed.groupChannelCid });
    expect(group).toMatchObject({ type: 'messaging', team: seed.organizationId });
    expect(group).toMatchObject({
      caseplans: [seed.caseplanIds[0]],
      organizations: [seed.organizationId],
      hasClient: true,
      hasGuest: true,
    });
    expect(group?.member_count).toBe(5);
    expect(group?.last_message_at).toBeTruthy();
    const [direct] = await server.app.chat.server.queryChannels({ cid: seed.directChannelCid });
    expect(direct).toMatchObject({ hasClient: true, hasGuest: false, member_count: 2 });
  });

  it('records lastMessageSentAt and lastMessageToClientAt from the chat (product-spec §4)', async () => {
    const stats = async () => {
      const { rows } = await server.db.query<{ user_id: string; sent: Date | null; to_client: Date | null }>(
        `SELECT user_id, last_message_sent_at AS sent, last_message_to_client_at AS to_client
           FROM caseplan_stats WHERE caseplan_id = $1`,
        [seed.caseplanIds[0]],
      );
      return new Map(rows.map((r) => [r.user_id, r]));
    };
    await expect.poll(async () => (await stats()).get(seed.users.maria)?.sent).toBeTruthy();
    const before = await stats();
    expect(before.get(seed.users.maria)?.to_client).toBeTruthy();
    expect(before.has(seed.users.noah)).toBe(false);

    await server.app.chat.server.sendMessage(seed.groupChannelCid, seed.users.noah, {
      text: 'Noted, thanks.',
    });
    await expect.poll(async () => (await stats()).get(seed.users.noah)?.sent).toBeTruthy();
    expect((await stats()).get(seed.users.noah)?.to_client).toBeTruthy();
  });

  it('lets every demo account sign in with the demo password, verified', async () => {
    for (const email of ['admin', 'maria', 'noah', 'chloe', 'gary'].map((n) => `${n}@caseroom.test`)) {
      const me = await get<{ email: string; emailVerified: boolean }>(email, '/api/me');
      expect(me).toMatchObject({ email, emailVerified: true });
    }
  });

  it('answers the user organizations in the spec field names', async () => {
    const [org, ...rest] = await get<Organization[]>('maria@caseroom.test', '/api/organizations');
    expect(rest).toEqual([]);
    expect(org).toMatchObject({
      id: seed.organizationId,
      eid: 'riverside',
      name: 'Riverside Family Services',
    });
    expect(org?.users[seed.users.admin]).toEqual({ type: 'admin' });
    expect(org?.users[seed.users.chloe]).toEqual({ type: 'client' });
    expect(org?.activeUsers).toHaveLength(5);
  });

  it('shows a client only their own entry of the organization', async () => {
    const [org] = await get<Organization[]>('chloe@caseroom.test', '/api/organizations');
    expect(org?.users).toEqual({ [seed.users.chloe]: { type: 'client' } });
    expect(org?.activeUsers).toEqual([seed.users.chloe]);
  });

  it('lists the case plans where the user is active (first one first)', async () => {
    const ids = async (email: string, query = '') =>
      (await get<Caseplan[]>(email, `/api/caseplans${query}`)).map((c) => c.id);
    const [first, second] = seed.caseplanIds;
    expect(await ids('maria@caseroom.test')).toEqual([first, second]);
    expect(await ids('admin@caseroom.test')).toEqual([first, second]);
    expect(await ids('noah@caseroom.test')).toEqual([first]); // inactive on the second
    expect(await ids('chloe@caseroom.test')).toEqual([first]);
    expect(await ids('gary@caseroom.test')).toEqual([first]);
    expect(await ids('stranger@example.test')).toEqual(['cp-other']);
    expect(await ids('maria@caseroom.test', `?organization=${seed.organizationId}`)).toEqual([first, second]);
    expect(await ids('noah@caseroom.test', `?organization=${seed.organizationId}`)).toEqual([first]);
  });

  it('answers a case plan with users, roles, teams and activeUsers', async () => {
    const first = await get<Caseplan>('maria@caseroom.test', `/api/caseplans/${seed.caseplanIds[0]}`);
    expect(first).toMatchObject({
      id: seed.caseplanIds[0],
      organization: seed.organizationId,
      closed: false,
    });
    expect(first.createdBy).toBe(seed.users.admin);
    expect(first.activeUsers).toHaveLength(5);
    const chloe = first.users[seed.users.chloe];
    expect(chloe).toMatchObject({ active: true, roleData: { client: true } });
    expect(first.roles[chloe!.role!]).toMatchObject({ name: 'Client', client: true, user: seed.users.chloe });
    expect(first.teams[chloe!.team!]).toMatchObject({ organization: seed.organizationId });
    for (const entry of Object.values(first.users)) {
      expect(entry.role && first.roles[entry.role]?.team).toBe(entry.team);
    }
    const second = await get<Caseplan>('admin@caseroom.test', `/api/caseplans/${seed.caseplanIds[1]}`);
    expect(second.users[seed.users.noah]).toMatchObject({ active: false });
    expect(second.activeUsers).not.toContain(seed.users.noah);
  });

  it('refuses case plans outside the user access, without telling strangers they exist', async () => {
    const denied = await get<{ error: { status: string; message: string } }>(
      'noah@caseroom.test',
      `/api/caseplans/${seed.caseplanIds[1]}`,
      403,
    );
    expect(denied.error).toEqual({ status: 'permission-denied', message: 'User not on caseplan' });
    const hidden = await get<{ error: { status: string } }>(
      'stranger@example.test',
      `/api/caseplans/${seed.caseplanIds[0]}`,
      404,
    );
    const missing = await get<{ error: { status: string } }>(
      'stranger@example.test',
      '/api/caseplans/nope',
      404,
    );
    expect(hidden).toEqual(missing);
    await get('maria@caseroom.test', '/api/caseplans/cp-other', 404);
    await get('chloe@caseroom.test', `/api/caseplans/${seed.caseplanIds[1]}`, 403);
  });

  it('refuses listing the case plans of an organization the user is not part of', async () => {
    const res = await get<{ error: { status: string; message: string } }>(
      'stranger@example.test',
      `/api/caseplans?organization=${seed.organizationId}`,
      403,
    );
    expect(res.error.message).toBe('User is not part of the organization');
    expect(await get<Organization[]>('stranger@example.test', '/api/organizations')).toHaveLength(1);
  });
});
