import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

/** Auth contracts of DESIGN.md: sign-up, sign-in, bearer and cookie sessions, sign-out, /api/me. */
describe('product auth', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });
  const cookieOf = (res: Response) =>
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');

  async function signUp(email: string, password = 'correct horse battery') {
    const res = await post('/api/auth/sign-up/email', { email, password, name: 'Test Person' });
    expect(res.status).toBe(200);
    return res;
  }

  it('signs up, answering a token in the body and header and a session cookie', async () => {
    const res = await signUp('new.person@example.test');
    const body = (await res.json()) as { token: string; user: { id: string; email: string } };
    expect(body.token).toEqual(expect.any(String));
    expect(body.user.email).toBe('new.person@example.test');
    expect(res.headers.get('set-auth-token')).toEqual(expect.any(String));
    expect(res.headers.getSetCookie().some((c) => /HttpOnly/i.test(c))).toBe(true);

    const me = await get('/api/me', { authorization: `Bearer ${body.token}` });
    expect(me.status).toBe(200);
    const json = (await me.json()) as Record<string, unknown>;
    expect(json).toMatchObject({
      uid: body.user.id,
      email: 'new.person@example.test',
      emailVerified: false,
      claims: {},
      user: { id: body.user.id, name: 'Test Person', photo: null, timezone: null },
    });
    const user = json.user as { lastLogin: string; created: string; updated: string };
    expect(Date.parse(user.lastLogin)).not.toBeNaN();
    expect(Date.parse(user.created)).not.toBeNaN();
  });

  it('signs in: body token, set-auth-token header and cookie all authenticate /api/me', async () => {
    await signUp('sign.in@example.test');
    const res = await post('/api/auth/sign-in/email', {
      email: 'sign.in@example.test',
      password: 'correct horse battery',
    });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    const headerToken = res.headers.get('set-auth-token') ?? '';
    const variants: Record<string, string>[] = [
      { authorization: `Bearer ${token}` },
      { authorization: `Bearer ${headerToken}` },
      { cookie: cookieOf(res) },
    ];
    for (const headers of variants) {
      const me = await get('/api/me', headers);
      expect(me.status).toBe(200);
      expect(((await me.json()) as { email: string }).email).toBe('sign.in@example.test');
    }
    const session = await get('/api/auth/get-session', { authorization: `Bearer ${token}` });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe('sign.in@example.test');
  });

  it('refuses a wrong password with 401 and an unknown address the same way', async () => {
    await signUp('careful@example.test');
    const wrong = await post('/api/auth/sign-in/email', {
      email: 'careful@example.test',
      password: 'nope-nope-nope',
    });
    const unknown = await post('/api/auth/sign-in/email', {
      email: 'nobody@example.test',
      password: 'nope-nope-nope',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('refuses a too short password at sign-up', async () => {
    const res = await post('/api/auth/sign-up/email', {
      email: 'short@example.test',
      password: 'short',
      name: 'S',
    });
    expect(res.status).toBe(400);
  });

  it.each([
    ['no credentials', {}],
    ['a malformed bearer token', { authorization: 'Bearer not-a-token' }],
    ['a forged bearer token', { authorization: 'Bearer abc.def' }],
    ['a bogus cookie', { cookie: 'caseroom.session_token=abc.def' }],
  ])('answers 401 unauthenticated to %s on /api/me and callables', async (_label, headers) => {
    const me = await get('/api/me', headers);
    expect(me.status).toBe(401);
    expect(await me.json()).toEqual({ error: { status: 'unauthenticated', message: 'Not signed in' } });
    const call = await post('/api/functions/chat-getToken', { data: null }, headers);
    expect(call.status).toBe(401);
    expect(((await call.json()) as { error: { status: string } }).error.status).toBe('unauthenticated');
    for (const path of ['/api/organizations', '/api/caseplans', '/api/caseplans/x']) {
      expect((await get(path, headers)).status).toBe(401);
    }
  });

  it('refuses an expired session', async () => {
    const res = await signUp('expired@example.test');
    const { token, user } = (await res.json()) as { token: string; user: { id: string } };
    await server.db.query(
      `UPDATE "session" SET "expiresAt" = now() - interval '1 minute' WHERE "userId" = $1`,
      [user.id],
    );
    expect((await get('/api/me', { authorization: `Bearer ${token}` })).status).toBe(401);
  });

  it('signs out with the cookie from a page on this server (any port); the old token is then refused', async () => {
    const res = await signUp('leaving@example.test');
    const { token } = (await res.json()) as { token: string };
    const out = await post('/api/auth/sign-out', {}, { cookie: cookieOf(res), origin: server.url });
    expect(out.status).toBe(200);
    expect((await get('/api/me', { authorization: `Bearer ${token}` })).status).toBe(401);
  });

  it('refuses a cookie-authenticated write from a foreign origin', async () => {
    const res = await signUp('targeted@example.test');
    const { token } = (await res.json()) as { token: string };
    const out = await post(
      '/api/auth/sign-out',
      {},
      { cookie: cookieOf(res), origin: 'https://evil.example' },
    );
    expect(out.status).toBe(403);
    expect((await get('/api/me', { authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it('serves a browser on this server (same-origin metadata) and refuses a cross-site sign-in', async () => {
    await signUp('browser@example.test');
    const creds = { email: 'browser@example.test', password: 'correct horse battery' };
    const same = await post('/api/auth/sign-in/email', creds, {
      origin: server.url,
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'cors',
      'sec-fetch-dest': 'empty',
    });
    expect(same.status).toBe(200);
    const cross = await post('/api/auth/sign-in/email', creds, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'cors',
      'sec-fetch-dest': 'empty',
    });
    expect(cross.status).toBe(403);
  });

  it('records the user record once, stamping lastLogin on each sign-in', async () => {
    const res = await signUp('twice@example.test');
    const { user } = (await res.json()) as { user: { id: string } };
    const first = await server.db.query<{ last_login: Date }>(
      'SELECT last_login FROM profiles WHERE id = $1',
      [user.id],
    );
    await new Promise((r) => setTimeout(r, 20));
    await post('/api/auth/sign-in/email', { email: 'twice@example.test', password: 'correct horse battery' });
    const second = await server.db.query<{ last_login: Date }>(
      'SELECT last_login FROM profiles WHERE id = $1',
      [user.id],
    );
    expect(second.rows).toHaveLength(1);
    expect(second.rows[0]!.last_login.getTime()).toBeGreaterThan(first.rows[0]!.last_login.getTime());
  });

  it('serves the public config and health', async () => {
    const config = await get('/api/config');
    expect(config.status).toBe(200);
    expect(await config.json()).toEqual({
      chatApiKey: server.config.chatApiKey,
      chatBaseUrl: '/chat',
      authProviders: [],
    });
    const health = await get('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });
});
