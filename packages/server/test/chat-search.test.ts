import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, type ChatUserClient } from './chat-support.js';

type Found = {
  results: Array<{ message: { id: string; cid: string; channel?: { cid: string } } }>;
  next?: string;
};

async function setup(server: TestServer) {
  const maria = await chatUser(server, 'maria');
  const noah = await chatUser(server, 'noah');
  const eve = await chatUser(server, 'eve');
  await maria.call('POST', '/channels/messaging/a/query', {
    data: { members: ['maria', 'noah'], topic: 'care' },
  });
  await maria.call('POST', '/channels/messaging/b/query', { data: { members: ['maria', 'eve'] } });
  const say = (u: ChatUserClient, ch: string, id: string, text: string, extra = {}) =>
    u.call('POST', `/channels/messaging/${ch}/message`, { message: { id, text, ...extra } });
  await say(maria, 'a', 'a1', 'The care plan meeting is on Monday');
  await say(noah, 'a', 'a2', 'Planning the budget');
  await say(maria, 'a', 'a3', 'Another plan for the garden');
  await say(eve, 'b', 'b1', 'Secret plan of Eve');
  await say(noah, 'a', 'a4', 'deleted plan');
  await noah.call('DELETE', '/messages/a4');
  const search = (u: ChatUserClient, payload: unknown) =>
    u.call('GET', '/search', undefined, { payload: JSON.stringify(payload) }) as unknown as Promise<{
      status: number;
      body: Found & { code?: number; message?: string };
    }>;
  return { maria, noah, eve, search };
}

const ids = (f: Found) => f.results.map((r) => r.message.id);

describe('search on PostgreSQL', () => {
  let server: TestServer;
  let s: Awaited<ReturnType<typeof setup>>;

  beforeAll(async () => {
    server = await startTestServer({ productChatRules: false });
    s = await setup(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('finds by prefix words in the caller’s channels only, never deleted messages', async () => {
    const res = await s.search(s.noah, { filter_conditions: { members: { $in: ['noah'] } }, query: 'plan' });
    expect(res.status).toBe(200);
    expect(ids(res.body).sort()).toEqual(['a1', 'a2', 'a3']);
    expect(res.body.results[0]?.message.channel?.cid).toBe('messaging:a');
    const eve = await s.search(s.eve, { filter_conditions: {}, query: 'plan' });
    expect(ids(eve.body)).toEqual(['b1']);
    const two = await s.search(s.noah, { filter_conditions: {}, query: 'care plan' });
    expect(ids(two.body)).toEqual(['a1']);
  });

  it('filters channels and messages, sorts and pages by offset or next (not both)', async () => {
    const byUser = await s.search(s.maria, {
      filter_conditions: { topic: 'care' },
      message_filter_conditions: { user_id: 'maria' },
      sort: [{ field: 'created_at', direction: 1 }],
    });
    expect(ids(byUser.body), JSON.stringify(byUser.body)).toEqual(['a1', 'a3']);
    const page1 = await s.search(s.maria, {
      filter_conditions: {},
      query: 'plan',
      sort: [{ field: 'created_at', direction: -1 }],
      limit: 2,
    });
    expect(ids(page1.body)).toEqual(['b1', 'a3']);
    const page2 = await s.search(s.maria, {
      filter_conditions: {},
      query: 'plan',
      sort: [{ field: 'created_at', direction: -1 }],
      limit: 2,
      next: page1.body.next,
    });
    expect(ids(page2.body)).toEqual(['a2', 'a1']);
    const both = await s.search(s.maria, {
      filter_conditions: {},
      query: 'plan',
      offset: 2,
      next: page1.body.next,
    });
    expect(both.body).toMatchObject({ code: 4, message: 'Cannot specify offset with next' });
    const neither = await s.search(s.maria, { filter_conditions: {} });
    expect(neither.status).toBe(400);
    const text = await s.search(s.maria, {
      filter_conditions: {},
      message_filter_conditions: { text: { $autocomplete: 'gard' } },
    });
    expect(ids(text.body)).toEqual(['a3']);
  });

  it('respects search-messages and refuses bad payloads', async () => {
    await server.db.query(
      `INSERT INTO chat_permissions (id, name, action, priority, resources, roles, channel_type)
       VALUES ('no-search', 'No search', 'Deny', 100, '{search-messages}', '{*}', 'messaging')`,
    );
    expect(ids((await s.search(s.noah, { filter_conditions: {}, query: 'plan' })).body)).toEqual([]);
    await server.db.query(`DELETE FROM chat_permissions WHERE id = 'no-search'`);
    expect((await s.noah.call('GET', '/search', undefined, { payload: '{' })).status).toBe(400);
    const bad = await s.search(s.noah, { filter_conditions: {}, message_filter_conditions: { secret: 1 } });
    expect(bad.status).toBe(400);
  });
});

describe('search on PGlite', () => {
  let server: TestServer;
  afterAll(async () => {
    await server?.close();
  });

  it('uses the same generated tsvector column and index', async () => {
    server = await startTestServer({ database: 'pglite', productChatRules: false });
    const s = await setup(server);
    const res = await s.search(s.noah, { filter_conditions: {}, query: 'plan' });
    expect(ids(res.body).sort()).toEqual(['a1', 'a2', 'a3']);
  });
});
