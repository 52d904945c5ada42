import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signChatToken } from '../src/chat/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatCall, type Reply, chatUser, openSocket, type ChatUserClient } from './chat-support.js';

/** `POST /chat/channels/delete` with tasks, and `GET /chat/members`. */
let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;
let olga: ChatUserClient;
let asServer: (method: string, path: string, body?: unknown) => Promise<Reply>;

beforeAll(async () => {
  server = await startTestServer({ database: 'postgres', productChatRules: false });
  maria = await chatUser(server, 'maria', 'Maria Hansen');
  noah = await chatUser(server, 'noah', 'Noah Berg');
  olga = await chatUser(server, 'olga', 'Olga Nilsen');
  const token = await signChatToken(server.config, { server: true });
  asServer = (method, path, body) => chatCall(server, method, path, { token, ...(body ? { body } : {}) });
});

afterAll(async () => {
  await server?.close();
});

const create = (id: string, members: string[]) =>
  maria.call('POST', `/channels/messaging/${id}/query`, { data: { members } });

describe('POST /chat/channels/delete', () => {
  it('soft-deletes channels as a task, per channel, and tells members', async () => {
    await create('del-1', ['maria', 'noah']);
    await create('del-2', ['maria']);
    await asServer('POST', '/channels/messaging/not-mine/query', {
      data: { members: ['olga'], created_by_id: 'olga' },
    });
    const noahSocket = await openSocket(server, { token: noah.token });
    const res = await maria.call<{ task_id: string }>('POST', '/channels/delete', {
      cids: ['messaging:del-1', 'messaging:del-2', 'messaging:not-mine', 'messaging:missing'],
    });
    expect(res.status).toBe(200);
    expect(await noahSocket.next('channel.deleted')).toMatchObject({ cid: 'messaging:del-1' });
    await noahSocket.close();
    const task = await maria.call('GET', `/tasks/${res.body.task_id}`);
    expect(task.body).toMatchObject({
      task_id: res.body.task_id,
      type: 'delete-channels',
      status: 'completed',
      result: {
        'messaging:del-1': { status: 'ok' },
        'messaging:del-2': { status: 'ok' },
        'messaging:not-mine': { status: 'error' },
        'messaging:missing': { status: 'error' },
      },
    });
    // Someone else's task is not theirs to read.
    expect((await noah.call('GET', `/tasks/${res.body.task_id}`)).body).toMatchObject({ code: 16 });
    expect((await asServer('GET', `/tasks/${res.body.task_id}`)).status).toBe(200);
    const list = await maria.call<{ channels: unknown[] }>('POST', '/channels', {
      filter_conditions: { cid: { $in: ['messaging:del-1', 'messaging:del-2'] } },
    });
    expect(list.body.channels).toEqual([]);
    const soft = await server.db.query("SELECT 1 FROM chat_channels WHERE cid = 'messaging:del-1'");
    expect(soft.rowCount).toBe(1);
  });

  it('hard-deletes for the server only, rows gone', async () => {
    await create('hard-1', ['maria', 'noah']);
    await maria.call('POST', '/channels/messaging/hard-1/message', { message: { id: 'h1', text: 'bye' } });
    const denied = await maria.call('POST', '/channels/delete', {
      cids: ['messaging:hard-1'],
      hard_delete: true,
    });
    expect(denied).toMatchObject({ status: 403, body: { code: 17 } });
    const res = await asServer('POST', '/channels/delete', { cids: ['messaging:hard-1'], hard_delete: true });
    const task = await asServer('GET', `/tasks/${String(res.body.task_id)}`);
    expect(task.body).toMatchObject({
      status: 'completed',
      result: { 'messaging:hard-1': { status: 'ok' } },
    });
    const rows = await server.db.query(
      "SELECT (SELECT count(*) FROM chat_channels WHERE cid = 'messaging:hard-1')::int AS c, (SELECT count(*) FROM chat_messages WHERE id = 'h1')::int AS m",
    );
    expect(rows.rows[0]).toEqual({ c: 0, m: 0 });
    const sync = await noah.call<{ events: Array<{ type: string; cid: string }> }>('POST', '/sync', {
      channel_cids: ['messaging:hard-1'],
      last_sync_at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(sync.body.events.map((e) => e.type)).toContain('channel.deleted');
  });

  it('refuses empty and oversized batches (code 4)', async () => {
    expect((await maria.call('POST', '/channels/delete', { cids: [] })).body).toMatchObject({ code: 4 });
    const many = Array.from({ length: 101 }, (_, i) => `messaging:x${i}`);
    expect((await maria.call('POST', '/channels/delete', { cids: many })).body).toMatchObject({ code: 4 });
    expect((await maria.call('GET', '/tasks/nope')).body).toMatchObject({ code: 16 });
  });
});

describe('GET /chat/members', () => {
  const members = async (who: ChatUserClient, payload: Record<string, unknown>) =>
    who.call<{ members: Array<{ user_id: string; banned: boolean; invited?: boolean }> }>(
      'GET',
      '/members',
      undefined,
      { payload: JSON.stringify({ type: 'messaging', id: 'team', ...payload }) },
    );

  it('filters by name, ids, banned and invites; sorts; pages; members only', async () => {
    await create('team', ['maria', 'noah']);
    await maria.call('POST', '/channels/messaging/team', { invites: ['olga'] });
    const all = await members(maria, {});
    expect(all.body.members.map((m) => m.user_id)).toEqual(['maria', 'noah', 'olga']);
    const byName = await members(maria, { filter_conditions: { name: { $autocomplete: 'ber' } } });
    expect(byName.body.members.map((m) => m.user_id)).toEqual(['noah']);
    const byIds = await members(maria, { filter_conditions: { user_id: { $in: ['olga', 'maria'] } } });
    expect(byIds.body.members.map((m) => m.user_id)).toEqual(['maria', 'olga']);
    const pending = await members(maria, { filter_conditions: { invite: 'pending' } });
    expect(pending.body.members.map((m) => m.user_id)).toEqual(['olga']);
    const notBanned = await members(maria, { filter_conditions: { banned: false } });
    expect(notBanned.body.members).toHaveLength(3);
    const sorted = await members(maria, { sort: [{ field: 'name', direction: -1 }], limit: 2, offset: 0 });
    expect(sorted.body.members.map((m) => m.user_id)).toEqual(['olga', 'noah']);
    const page2 = await members(maria, { sort: [{ field: 'name', direction: -1 }], limit: 2, offset: 2 });
    expect(page2.body.members.map((m) => m.user_id)).toEqual(['maria']);

    // A pending invitee is not a reader yet; an outsider neither.
    expect((await members(olga, {})).body).toMatchObject({ code: 17 });
    const outsider = await chatUser(server, 'pia');
    expect((await members(outsider, {})).body).toMatchObject({ code: 17 });
    expect((await members(maria, { filter_conditions: { name: { $gt: 'a' } } })).body).toMatchObject({
      code: 4,
    });
    const missing = await maria.call('GET', '/members', undefined, { payload: '{' });
    expect(missing.body).toMatchObject({ code: 4 });
  });
});
