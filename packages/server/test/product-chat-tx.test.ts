import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoSeed } from '../src/product/index.js';
import { openSocket, type ChatSocket, type Frame } from './chat-support.js';
import { call, countRows, ok, type Person } from './domain-support.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Issue 13 §8: a product change and the chat changes it implies commit in one transaction, their events only after
 * the commit. A trigger in the test database makes one part fail; the other part must not be written either, and
 * nobody must hear of it.
 */
describe('product and chat commit together', () => {
  let server: TestServer;
  let seed: DemoSeed;
  const demo: Record<string, Person> = {};
  let watcher: ChatSocket;

  const signIn = async (email: string): Promise<Person> => {
    const res = await server.app.product.auth.api.signInEmail({ body: { email, password: 'caseroom-demo' } });
    return { uid: res.user.id, token: res.token, email };
  };
  const bennett = () => seed.caseplanIds[0] ?? '';
  const sql = (text: string) => server.db.query(text);

  beforeAll(async () => {
    server = await startTestServer({ env: { SEED_DEMO: '1' } });
    seed = (await server.app.product.seedDemo()) as DemoSeed;
    for (const key of ['admin', 'maria', 'gary']) demo[key] = await signIn(`${key}@caseroom.test`);
    // Maria watches the case plan's group chat from a real socket.
    const token = (await ok<string>(server, demo.maria!, 'chat-getToken', null)) ?? '';
    watcher = await openSocket(server, { token });
    await sql(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await sql('CREATE SEQUENCE attempts');
    await sql(`CREATE FUNCTION deadlock_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('attempts') = 1 THEN RAISE EXCEPTION 'deadlock (test)' USING ERRCODE = '40P01'; END IF;
        RETURN NEW;
      END $$`);
  }, 120_000);
  afterAll(async () => {
    await watcher?.close();
    await server?.close();
  });

  /** The frames Maria got of `type`, once the one of `type` matching `last` arrived (nothing timed). */
  const framesUntil = async (type: string, last: (f: Frame) => boolean): Promise<Frame[]> => {
    for (;;) {
      const f = await watcher.next(type);
      if (last(f))
        return watcher.frames.slice(0, watcher.frames.indexOf(f) + 1).filter((x) => x.type === type);
    }
  };
  const membership = async (userId: string) =>
    (
      await server.db.query<{ active: boolean }>(
        'SELECT active FROM caseplan_users WHERE caseplan_id = $1 AND user_id = $2',
        [bennett(), userId],
      )
    ).rows[0]?.active;
  const inChat = async (userId: string) =>
    (
      await server.db.query('SELECT 1 FROM chat_members WHERE cid = $1 AND user_id = $2', [
        seed.groupChannelCid,
        userId,
      ])
    ).rowCount > 0;

  it('removing a person: when the chat part fails, the product change is not written and nothing is sent', async () => {
    const gary = demo.gary!.uid;
    const audits = await countRows(server.db, 'audit_log');
    await sql(
      'CREATE TRIGGER refuse_member_delete BEFORE DELETE ON chat_members FOR EACH ROW EXECUTE FUNCTION refuse()',
    );
    const failed = await call(server, demo.admin, 'caseplans-removeUser', {
      caseplanId: bennett(),
      userId: gary,
    });
    await sql('DROP TRIGGER refuse_member_delete ON chat_members');
    expect(failed.status).toBe(500);
    expect(await membership(gary)).toBe(true);
    expect(await inChat(gary)).toBe(true);
    expect(await countRows(server.db, 'audit_log')).toBe(audits);

    // Done again without the trigger: now both parts are written, and Maria hears of it once.
    await ok(server, demo.admin!, 'caseplans-removeUser', { caseplanId: bennett(), userId: gary });
    expect(await membership(gary)).toBe(false);
    expect(await inChat(gary)).toBe(false);
    const removed = await framesUntil('member.removed', () => true);
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({ cid: seed.groupChannelCid, member: { user_id: gary } });
  });

  it('closing a plan: when the product part fails at commit, the chat change is not written and nothing is sent', async () => {
    const closings = await countRows(server.db, 'caseplan_closings');
    // Fails at COMMIT, after the channels were frozen inside the transaction.
    await sql(`CREATE CONSTRAINT TRIGGER refuse_closing AFTER INSERT ON caseplan_closings
               DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse()`);
    const failed = await call(server, demo.admin, 'caseplans-close', { caseplanId: bennett() });
    await sql('DROP TRIGGER refuse_closing ON caseplan_closings');
    expect(failed.status).toBe(500);
    const frozen = async () =>
      (await server.app.chat.server.queryChannels({ cid: seed.groupChannelCid }))[0]?.frozen;
    expect(await frozen()).toBe(false);
    expect(await countRows(server.db, 'caseplan_closings')).toBe(closings);

    await ok(server, demo.admin!, 'caseplans-close', { caseplanId: bennett() });
    expect(await frozen()).toBe(true);
    const updates = await framesUntil(
      'channel.updated',
      (f) => (f.channel as { frozen?: boolean }).frozen === true,
    );
    expect(updates.filter((f) => (f.channel as { frozen?: boolean }).frozen === true)).toHaveLength(1);
  });

  it('runs the whole change again after a deadlock, written once and announced once', async () => {
    const closings = await countRows(server.db, 'caseplan_closings');
    await sql(`CREATE TRIGGER deadlock_channel BEFORE UPDATE ON chat_channels
               FOR EACH ROW EXECUTE FUNCTION deadlock_once()`);
    const reopened = await call(server, demo.admin, 'caseplans-reopen', { caseplanId: bennett() });
    await sql('DROP TRIGGER deadlock_channel ON chat_channels');
    expect(reopened.status).toBe(200);
    expect(await countRows(server.db, 'caseplan_closings')).toBe(closings + 1);
    const thawed = await framesUntil(
      'channel.updated',
      (f) => (f.channel as { frozen?: boolean }).frozen === false,
    );
    expect(thawed.filter((f) => (f.channel as { frozen?: boolean }).frozen === false)).toHaveLength(1);
  });
});
