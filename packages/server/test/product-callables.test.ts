import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

/** The callable protocol: `POST /api/functions/{name}` with `{"data": ...}`. */
describe('product callables', () => {
  let server: TestServer;
  let token: string;
  let uid: string;
  beforeAll(async () => {
    server = await startTestServer();
    const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'caller@example.test',
        password: 'correct horse battery',
        name: 'Cal Ler',
      }),
    });
    ({
      token,
      user: { id: uid },
    } = (await res.json()) as { token: string; user: { id: string } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const call = (name: string, body: string | undefined, contentType = 'application/json') =>
    fetch(`${server.url}/api/functions/${name}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': contentType } : {}),
      },
      ...(body !== undefined ? { body } : {}),
    });

  it('chat-getToken answers a chat JWT (HS256, CHAT_API_SECRET, claim user_id) and upserts the chat user', async () => {
    const res = await call('chat-getToken', JSON.stringify({ data: null }));
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: string };
    const { payload, protectedHeader } = await jwtVerify(
      result,
      new TextEncoder().encode(server.config.chatApiSecret),
    );
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.user_id).toBe(uid);

    const [chatUser] = await server.app.chat.server.upsertUsers([{ id: uid, name: 'Cal Ler' }]);
    expect(chatUser).toMatchObject({ id: uid, name: 'Cal Ler' });
  });

  it('chat-getToken works without a body and with empty data', async () => {
    expect((await call('chat-getToken', undefined)).status).toBe(200);
    expect((await call('chat-getToken', '{}')).status).toBe(200);
  });

  it('answers 404 not-found to an unknown function', async () => {
    const res = await call('caseplans-teleport', JSON.stringify({ data: {} }));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { status: 'not-found', message: 'Unknown function: caseplans-teleport' },
    });
  });

  it.each([
    ['malformed JSON', '{"data": '],
    ['a body that is not an object', '[1,2]'],
    ['a plain-text body', 'hello'],
  ])('answers 400 invalid-argument to %s', async (label, body) => {
    const res = await call(
      'chat-getToken',
      body,
      label === 'a plain-text body' ? 'text/plain' : 'application/json',
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('invalid-argument');
  });

  it('answers unknown product routes in the error shape', async () => {
    const res = await fetch(`${server.url}/api/nothing-here`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('not-found');
  });
});
