import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, startTwoNodes, type TestServer, type TwoNodes } from './helpers/server.js';
import { chatCall, chatUser, type ChatUserClient } from './chat-support.js';

describe('rate limits (memory store)', () => {
  let server: TestServer;
  let maria: ChatUserClient;
  let noah: ChatUserClient;

  beforeAll(async () => {
    server = await startTestServer({ productChatRules: false });
    maria = await chatUser(server, 'maria');
    noah = await chatUser(server, 'noah');
    await maria.call('POST', '/channels/messaging/rl/query', { data: { members: ['maria', 'noah'] } });
    server.app.chat.rateLimits.configure('SendMessage', { points: 3, duration: 60 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers code 9 / HTTP 429 past the per-user endpoint limit, with headers and GET /rate_limits', async () => {
    const send = (u: ChatUserClient) =>
      chatCall(server, 'POST', '/channels/messaging/rl/message', {
        token: u.token,
        body: { message: { text: 'x' } },
      });
    for (let i = 0; i < 3; i++) expect((await send(maria)).status).toBe(200);
    const refused = await send(maria);
    expect(refused).toMatchObject({ status: 429, body: { code: 9, StatusCode: 429 } });
    const count = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM chat_messages');
    expect(count.rows[0]?.n).toBe(3);
    // Another user and another endpoint are not affected.
    expect((await send(noah)).status).toBe(200);
    expect((await maria.call('POST', '/channels', {})).status).toBe(200);

    const limits = await maria.call('GET', '/rate_limits', undefined, {
      endpoints: 'SendMessage,QueryChannels',
    });
    expect(limits.body).toMatchObject({
      web: { SendMessage: { limit: 3, remaining: 0 }, QueryChannels: { limit: 300 } },
    });
    const reset = (limits.body.web as { SendMessage: { reset: number } }).SendMessage.reset;
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    const res = await fetch(
      new URL(`/chat/channels/messaging/rl/message?api_key=${server.config.chatApiKey}`, server.url),
      {
        method: 'POST',
        headers: { authorization: noah.token, 'content-type': 'application/json' },
        body: JSON.stringify({ message: { text: 'y' } }),
      },
    );
    expect(res.headers.get('x-ratelimit-limit')).toBe('3');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('1');
  });
});

describe('rate limits set by the operator (CHAT_RATE_LIMITS)', () => {
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  const guests = async (s: TestServer, n: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) {
      const reply = await chatCall(s, 'POST', '/guest', { body: { user: { id: `g${i}-${Date.now()}` } } });
      statuses.push(reply.status);
    }
    return statuses;
  };

  it('applies an endpoint override from the environment', async () => {
    server = await startTestServer({
      env: { CHAT_RATE_LIMITS: 'CreateGuest=2/60' },
      productChatRules: false,
    });
    expect(await guests(server, 3)).toEqual([200, 200, 429]);
    await server.close();
    server = undefined;
  });

  it('counts nothing when the limits are off', async () => {
    server = await startTestServer({ env: { CHAT_RATE_LIMITS: 'off' }, productChatRules: false });
    const statuses = await guests(server, 35); // the default allows 30 per minute
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('refuses to start with an unknown endpoint name, naming the variable', async () => {
    const start = startTestServer({
      database: 'pglite',
      env: { CHAT_RATE_LIMITS: 'SendMesage=10/60' },
      productChatRules: false,
    });
    await expect(start).rejects.toThrow(/CHAT_RATE_LIMITS names an unknown endpoint "SendMesage"/);
  });
});

describe('rate limits (Redis, shared by two nodes)', () => {
  let nodeA: TestServer;
  let nodeB: TestServer;
  let nodes: TwoNodes | undefined;

  beforeAll(async () => {
    nodes = await startTwoNodes(undefined, undefined, { productChatRules: false });
    ({ a: nodeA, b: nodeB } = nodes);
  });
  afterAll(() => nodes?.close());

  it('counts one user’s requests across nodes', async () => {
    const id = `rl-${Date.now()}`;
    for (const node of [nodeA, nodeB])
      node.app.chat.rateLimits.configure('Search', { points: 2, duration: 60 });
    await nodeA.app.chat.server.upsertUsers([{ id }]);
    const token = await nodeA.app.chat.server.createToken(id);
    const search = (node: TestServer) =>
      chatCall(node, 'GET', '/search', {
        token,
        query: { payload: JSON.stringify({ filter_conditions: {}, query: 'x' }) },
      });
    expect((await search(nodeA)).status).toBe(200);
    expect((await search(nodeB)).status).toBe(200);
    expect(await search(nodeA)).toMatchObject({ status: 429, body: { code: 9 } });
  });
});
