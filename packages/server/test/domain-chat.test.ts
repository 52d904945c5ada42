import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoSeed } from '../src/product/index.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { addMember, call, ok, signUp, type Person } from './domain-support.js';

/** Chat links of the domain: starting chats (product-spec §5-§6, §8), close/reopen freezing, removal. */
describe('case plans and chat (issue 4)', () => {
  let server: TestServer;
  let seed: DemoSeed;
  const demo: Record<string, Person> = {};

  const signIn = async (email: string): Promise<Person> => {
    const res = await server.app.product.auth.api.signInEmail({ body: { email, password: 'caseroom-demo' } });
    return { uid: res.user.id, token: res.token, email };
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { SEED_DEMO: '1' } });
    seed = (await server.app.product.seedDemo()) as DemoSeed;
    for (const key of ['admin', 'maria', 'noah', 'chloe', 'gary'])
      demo[key] = await signIn(`${key}@caseroom.test`);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const bennett = () => seed.caseplanIds[0] ?? '';
  const brooks = () => seed.caseplanIds[1] ?? '';
  const channel = async (cid: string) => {
    const [c] = await server.app.chat.server.queryChannels({ cid });
    return c;
  };

  it('starts a chat with a client on the case plan: team, caseplans, organizations, hasClient/hasGuest', async () => {
    const { maria, chloe } = demo;
    const r = await ok<{ cid: string }>(server, maria!, 'chat-startChat', {
      caseplanId: bennett(),
      contacts: [maria!.uid, chloe!.uid, chloe!.uid],
    });
    expect(await channel(r.cid)).toMatchObject({
      team: seed.organizationId,
      caseplans: [bennett()],
      organizations: [seed.organizationId],
      hasClient: true,
      hasGuest: false,
      member_count: 2,
    });
    const { rows } = await server.db.query<{ custom: Record<string, unknown> }>(
      'SELECT custom FROM chat_users WHERE id = $1',
      [chloe!.uid],
    );
    expect(rows[0]?.custom).toMatchObject({ clientOf: [seed.organizationId] });
  });

  it('refuses a chat with someone not active on the case plan', async () => {
    const { maria, noah, chloe } = demo;
    const r = await call(server, maria, 'chat-startChat', {
      caseplanId: brooks(),
      contacts: [maria!.uid, noah!.uid],
    });
    expect(r).toMatchObject({
      status: 412,
      body: { error: { message: 'Cannot start chat with user that is not active in caseplan' } },
    });
    const off = await call(server, chloe, 'chat-startChat', {
      caseplanId: brooks(),
      contacts: [chloe!.uid, maria!.uid],
    });
    expect(off.body.error?.message).toBe('Cannot start chat with user that is not active in caseplan');
  });

  it('needs one unambiguous team: two shared organizations fail', async () => {
    const boss = await signUp(server, 'boss', { sadmin: true });
    const second = await ok<string>(server, boss, 'organizations-create', { name: 'Second' });
    const { admin, maria } = demo;
    await addMember(server.db, second, admin!.uid, 'admin');
    await addMember(server.db, second, maria!.uid, 'member');
    const r = await call(server, admin, 'chat-startChat', { contacts: [admin!.uid, maria!.uid] });
    expect(r.body.error?.message).toBe('Failed getting organization id for contacts');
    const stranger = await signUp(server, 'stranger');
    const unknown = await call(server, admin, 'chat-startChat', { contacts: [admin!.uid, stranger.uid] });
    expect(unknown.body.error?.message).toBe(`Contact not found for userId: ${stranger.uid}`);
  });

  it('freezes the case plan chats on close and thaws them on reopen', async () => {
    const { admin } = demo;
    await ok(server, admin!, 'caseplans-close', { caseplanId: bennett(), reason: 'Finished' });
    expect((await channel(seed.groupChannelCid))?.frozen).toBe(true);
    expect((await channel(seed.directChannelCid))?.frozen).toBe(true);
    await ok(server, admin!, 'caseplans-reopen', { caseplanId: bennett() });
    expect((await channel(seed.groupChannelCid))?.frozen).toBe(false);
  });

  it('removing a person from the case plan removes them from its chats', async () => {
    const { admin, gary } = demo;
    const members = async () =>
      (
        await server.db.query<{ user_id: string }>('SELECT user_id FROM chat_members WHERE cid = $1', [
          seed.groupChannelCid,
        ])
      ).rows.map((r) => r.user_id);
    expect(await members()).toContain(gary!.uid);
    await ok(server, admin!, 'caseplans-removeUser', { caseplanId: bennett(), userId: gary!.uid });
    expect(await members()).not.toContain(gary!.uid);
  });

  it('answers contacts with the spec fields, clients seeing only their case plans', async () => {
    const res = await fetch(`${server.url}/api/contacts`, {
      headers: { authorization: `Bearer ${demo.chloe!.token}` },
    });
    const contacts = (await res.json()) as {
      id: string;
      isClient: boolean;
      isOnTeam: boolean;
      caseplans: string[];
    }[];
    const maria = contacts.find((c) => c.id === demo.maria!.uid);
    expect(maria).toMatchObject({ isOnTeam: true, isClient: false, caseplans: [bennett()] });
    expect(contacts.find((c) => c.id === demo.chloe!.uid)).toMatchObject({ isClient: true, isOnTeam: false });
    expect(contacts.some((c) => c.id === demo.noah!.uid)).toBe(true);
  });
});
