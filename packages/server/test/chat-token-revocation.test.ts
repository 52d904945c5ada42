import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signChatToken } from '../src/chat/auth.js';
import { createTestDatabase, startTestServer, type TestServer } from './helpers/server.js';
import { signUp, type Person } from './domain-support.js';
import { chatCall, openSocket } from './chat-support.js';

/**
 * A chat token revoked at sign-out stays revoked (issue 13 §4): after the node restarts, and on a node that never got
 * the bus message. The product revokes through the session's delete hook (product/auth/auth.ts ->
 * ChatServerApi.disconnectUser), which records the revocation in chat_token_revocations.
 */
let database: { url: string; drop(): Promise<void> };
const servers: TestServer[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  for (const s of servers.splice(0)) await s.close();
  await database?.drop();
});

async function node(): Promise<TestServer> {
  const server = await startTestServer({ databaseUrl: database.url });
  servers.push(server);
  return server;
}

async function stop(server: TestServer): Promise<void> {
  servers.splice(servers.indexOf(server), 1);
  await server.close();
}

async function chatToken(server: TestServer, person: Person): Promise<string> {
  const res = await fetch(`${server.url}/api/functions/chat-getToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${person.token}` },
    body: JSON.stringify({ data: null }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: string }).result;
}

async function signOut(server: TestServer, person: Person): Promise<void> {
  const res = await fetch(`${server.url}/api/auth/sign-out`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${person.token}` },
    body: '{}',
  });
  expect(res.status).toBe(200);
}

/** A channel query as the token's user: 200, or the refusal. */
function queryChannels(server: TestServer, token: string, userId: string) {
  return chatCall(server, 'POST', '/channels', {
    token,
    query: { user_id: userId },
    body: { filter_conditions: { members: { $in: [userId] } } },
  });
}

const revoked = { status: 401, body: { code: 40, message: 'JWT token revoked', StatusCode: 401 } };

describe('chat token revocation', () => {
  it('refuses a token revoked at sign-out after the node restarts on the same database', async () => {
    const first = await node();
    const person = await signUp(first, 'restart');
    const token = await chatToken(first, person);
    expect((await queryChannels(first, token, person.uid)).status).toBe(200);

    await signOut(first, person);
    expect(await queryChannels(first, token, person.uid)).toEqual(revoked);

    await stop(first);
    const second = await node();
    expect(await queryChannels(second, token, person.uid)).toEqual(revoked);
    // Tokens issued after the revocation (iat in whole seconds) are good.
    await new Promise((r) => setTimeout(r, 1100));
    const fresh = await second.app.chat.server.createToken(person.uid, 60);
    expect((await queryChannels(second, fresh, person.uid)).status).toBe(200);
    await stop(second);
  });

  it('refuses it on a node that never got the bus message, and closes its socket there', async () => {
    // Two nodes on one database, each with its own in-process bus: A's revocation message never reaches B.
    const a = await node();
    const b = await node();
    const person = await signUp(a, 'missed-bus');
    const token = await chatToken(a, person);
    expect((await queryChannels(b, token, person.uid)).status).toBe(200);
    const onB = await openSocket(b, { token, userId: person.uid });

    await signOut(a, person);
    expect(await queryChannels(a, token, person.uid)).toEqual(revoked);
    // B reads the revocation from the database (every REVOCATION_POLL_MS, 2 s).
    await vi.waitFor(async () => expect(await queryChannels(b, token, person.uid)).toEqual(revoked), {
      timeout: 10_000,
      interval: 200,
    });
    expect(await onB.next('connection.error')).toMatchObject({ error: { code: 40 } });
    await onB.close();
  });

  it('refuses a deactivated user on a node that never got the bus message, even with a token minted after', async () => {
    const a = await node();
    const b = await node();
    await a.app.chat.server.upsertUsers([{ id: 'dora' }]);
    const server = await signChatToken(a.config, { server: true });
    const deactivated = await chatCall(a, 'POST', '/users/dora/deactivate', { token: server, body: {} });
    expect(deactivated.status).toBe(200);
    // Past the revocation's second: only the user's inactive state can refuse this token.
    await new Promise((r) => setTimeout(r, 1100));
    const later = await b.app.chat.server.createToken('dora', 60);
    await vi.waitFor(
      async () =>
        expect(await queryChannels(b, later, 'dora')).toMatchObject({ status: 403, body: { code: 17 } }),
      { timeout: 10_000, interval: 200 },
    );
  });
});
