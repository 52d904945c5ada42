import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signChatToken } from '../src/chat/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatCall, type Reply, chatUser, openSocket, type ChatUserClient } from './chat-support.js';

/** User administration: delete, deactivate, restore, export, custom user events. */
let server: TestServer;
let asServer: (
  method: string,
  path: string,
  body?: unknown,
  query?: Record<string, string>,
) => Promise<Reply>;

beforeAll(async () => {
  server = await startTestServer({ database: 'postgres', productChatRules: false });
  const token = await signChatToken(server.config, { server: true });
  asServer = (method, path, body, query) =>
    chatCall(server, method, path, { token, ...(body ? { body } : {}), ...(query ? { query } : {}) });
});

afterAll(async () => {
  await server?.close();
});

async function pair(a: string, b: string, cid: string): Promise<[ChatUserClient, ChatUserClient]> {
  const ua = await chatUser(server, a);
  const ub = await chatUser(server, b);
  await ua.call('POST', `/channels/messaging/${cid}/query`, { data: { members: [a, b] } });
  return [ua, ub];
}

describe('deleting users', () => {
  it('is for the server or admins; soft delete keeps messages and can be restored', async () => {
    const [ann, bob] = await pair('ann', 'bob', 'ab');
    await ann.call('POST', '/channels/messaging/ab/message', { message: { id: 'ann-1', text: 'hello' } });
    expect((await bob.call('DELETE', '/users/ann')).body).toMatchObject({ code: 17 });
    const bobSocket = await openSocket(server, { token: bob.token });
    const annSocket = await openSocket(server, { token: ann.token });
    const res = await asServer('DELETE', '/users/ann');
    expect(res.body).toMatchObject({ user: { id: 'ann' } });
    expect(await bobSocket.next('user.deleted')).toMatchObject({ user: { id: 'ann' }, hard_delete: false });
    expect(await annSocket.next('connection.error')).toMatchObject({ error: { code: 40 } });
    // Deleted users cannot act, even with a token minted later (revocation covers the current second).
    await new Promise((r) => setTimeout(r, 1100));
    const fresh = await server.app.chat.server.createToken('ann');
    const act = await chatCall(server, 'POST', '/channels/messaging/ab/message', {
      token: fresh,
      body: { message: { text: 'still here?' } },
    });
    expect(act).toMatchObject({ status: 403, body: { code: 17 } });
    const msg = await bob.call('GET', '/messages/ann-1');
    expect(msg.body).toMatchObject({ message: { id: 'ann-1', type: 'regular', text: 'hello' } });

    expect((await asServer('POST', '/users/restore', { user_ids: ['ann'] })).body).toMatchObject({
      users: [{ id: 'ann' }],
    });
    const back = await chatCall(server, 'POST', '/channels/messaging/ab/message', {
      token: fresh,
      body: { message: { text: 'back' } },
    });
    expect(back.status).toBe(200);
    await bobSocket.close();
    await annSocket.close();
  });

  it('soft delete with mark_messages_deleted; hard delete removes the user and keeps authorless messages', async () => {
    const [cat, dan] = await pair('cat', 'dan', 'cd');
    await cat.call('POST', '/channels/messaging/cd/message', { message: { id: 'cat-1', text: 'one' } });
    await cat.call('POST', '/channels/messaging/cd/message', { message: { id: 'cat-2', text: 'two' } });
    await dan.call('POST', '/messages/cat-2/reaction', { reaction: { type: 'like' } });
    await cat.call('POST', '/messages/cat-2/reaction', { reaction: { type: 'like' } });
    await asServer('DELETE', '/users/cat', undefined, { mark_messages_deleted: 'true' });
    expect((await dan.call('GET', '/messages/cat-1')).body).toMatchObject({ message: { type: 'deleted' } });

    await asServer('DELETE', '/users/cat', undefined, { hard_delete: 'true' });
    const users = await server.db.query("SELECT 1 FROM chat_users WHERE id = 'cat'");
    expect(users.rowCount).toBe(0);
    const m = await dan.call<{ message: Record<string, unknown> }>('GET', '/messages/cat-2');
    expect(m.body.message.user_id).toBeUndefined();
    expect(m.body.message).toMatchObject({ reaction_groups: { like: { count: 1 } } });
    const q = await dan.call<{ members: unknown[] }>('POST', '/channels/messaging/cd/query', {});
    expect(q.body.members).toHaveLength(1);
    expect((await asServer('DELETE', '/users/cat')).body).toMatchObject({ code: 16 });
  });

  it('batch delete answers a task with per-user results', async () => {
    await chatUser(server, 'eve');
    await chatUser(server, 'fay');
    const res = await asServer('POST', '/users/delete', { user_ids: ['eve', 'fay', 'ghost'], user: 'hard' });
    const task = await asServer('GET', `/tasks/${String(res.body.task_id)}`);
    expect(task.body).toMatchObject({
      type: 'delete-users',
      status: 'completed',
      result: { eve: { status: 'ok' }, fay: { status: 'ok' }, ghost: { status: 'error' } },
    });
  });
});

describe('deactivating users', () => {
  it('closes their connections and refuses them until reactivated', async () => {
    const [gus, hal] = await pair('gus', 'hal', 'gh');
    const gusSocket = await openSocket(server, { token: gus.token });
    const halSocket = await openSocket(server, { token: hal.token });
    const res = await asServer('POST', '/users/gus/deactivate', {});
    expect(res.body).toMatchObject({ user: { id: 'gus' } });
    expect(await gusSocket.next('connection.error')).toMatchObject({ error: { code: 40 } });
    expect(await halSocket.next('user.deactivated')).toMatchObject({ user: { id: 'gus' } });
    await new Promise((r) => setTimeout(r, 1100));
    const fresh = await server.app.chat.server.createToken('gus');
    const refused = await openSocket(server, { token: fresh });
    expect(refused.first).toMatchObject({ type: 'connection.error', error: { code: 17 } });
    const list = await chatCall(server, 'POST', '/channels', {
      token: fresh,
      body: { filter_conditions: {} },
    });
    expect(list).toMatchObject({ status: 403, body: { code: 17 } });
    await asServer('POST', '/users/reactivate', { user_ids: ['gus'] });
    expect(await halSocket.next('user.reactivated')).toMatchObject({ user: { id: 'gus' } });
    const again = await openSocket(server, { token: fresh });
    expect(again.first).toMatchObject({ type: 'health.check' });
    await Promise.all([gusSocket.close(), halSocket.close(), refused.close(), again.close()]);
    expect((await hal.call('POST', '/users/gus/deactivate', {})).body).toMatchObject({ code: 17 });
  });

  it('deactivates in batches, optionally deleting messages', async () => {
    const [ida] = await pair('ida', 'jon', 'ij');
    await ida.call('POST', '/channels/messaging/ij/message', { message: { id: 'ida-1', text: 'x' } });
    const res = await asServer('POST', '/users/deactivate', {
      user_ids: ['ida', 'jon'],
      mark_messages_deleted: true,
    });
    expect((res.body.users as unknown[]).length).toBe(2);
    const row = await server.db.query<{ type: string }>("SELECT type FROM chat_messages WHERE id = 'ida-1'");
    expect(row.rows[0]?.type).toBe('deleted');
  });
});

describe('export and user events', () => {
  it('exports a user’s own data to them, the server and admins only', async () => {
    const [kim, lea] = await pair('kim', 'lea', 'kl');
    await kim.call('POST', '/channels/messaging/kl/message', { message: { id: 'kim-1', text: 'mine' } });
    await kim.call('POST', '/messages/kim-1/reaction', { reaction: { type: 'love' } });
    const own = await kim.call('GET', '/users/kim/export');
    expect(own.body).toMatchObject({
      user: { id: 'kim' },
      messages: [{ id: 'kim-1', text: 'mine' }],
      reactions: [{ message_id: 'kim-1', type: 'love' }],
    });
    expect((await lea.call('GET', '/users/kim/export')).body).toMatchObject({ code: 17 });
    expect((await asServer('GET', '/users/kim/export')).status).toBe(200);
  });

  it('sends a custom event to one user’s sockets only (server)', async () => {
    const [max, ned] = await pair('max', 'ned', 'mn');
    const maxSocket = await openSocket(server, { token: max.token });
    const nedSocket = await openSocket(server, { token: ned.token });
    const res = await asServer('POST', '/users/max/event', { event: { type: 'case.assigned', case: 'c1' } });
    expect(res.status).toBe(200);
    expect(await maxSocket.next('case.assigned')).toMatchObject({ case: 'c1', user_id: 'max' });
    expect(await nedSocket.receives('case.assigned')).toBe(false);
    expect((await ned.call('POST', '/users/max/event', { event: { type: 'x' } })).body).toMatchObject({
      code: 17,
    });
    const reserved = await asServer('POST', '/users/max/event', { event: { type: 'message.new' } });
    expect(reserved.body).toMatchObject({ code: 4 });
    await Promise.all([maxSocket.close(), nedSocket.close()]);
  });
});
