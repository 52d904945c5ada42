import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { client } from './auth-support.js';

/** The safety list of issue 3: hashing, enumeration, rate limits, cookies, CSRF, revocation, claims. */
describe('auth safety', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let ip = 0;
  const from = () => ({ 'x-forwarded-for': `10.2.${Math.floor(++ip / 250)}.${ip % 250}` });
  const cookieOf = (res: Response) =>
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');

  beforeAll(async () => {
    // As deployed behind a reverse proxy: the tests play clients at many addresses through X-Forwarded-For.
    server = await startTestServer({ env: { TRUST_PROXY: '1' } });
    api = client(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function signUp(email: string) {
    const res = await api.post(
      '/api/auth/sign-up/email',
      { email, password: 'correct horse battery', name: 'Safe Person' },
      from(),
    );
    expect(res.status).toBe(200);
    return { res, ...((await res.json()) as { token: string; user: { id: string } }) };
  }

  it('hashes passwords with scrypt N=2^15 r=8 p=3 and explains the minimum length', async () => {
    const { user } = await signUp('hashed@example.test');
    const { rows } = await server.db.query<{ password: string }>(
      `SELECT password FROM account WHERE "userId" = $1 AND "providerId" = 'credential'`,
      [user.id],
    );
    expect(rows[0]!.password).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/);
    const short = await api.post(
      '/api/auth/sign-up/email',
      { email: 'short@example.test', password: 'short', name: 'S' },
      from(),
    );
    expect(short.status).toBe(400);
    expect(((await short.json()) as { message: string }).message).toBe('Password too short');
  });

  it('answers sign-in, magic-link and forgot-password the same for known and unknown addresses', async () => {
    await signUp('known@example.test');
    for (const [path, body] of [
      ['/api/auth/sign-in/email', { password: 'wrong password!' }],
      ['/api/auth/sign-in/magic-link', {}],
      ['/api/auth/request-password-reset', {}],
    ] as const) {
      const known = await api.post(path, { email: 'known@example.test', ...body }, from());
      const unknown = await api.post(path, { email: 'unknown@example.test', ...body }, from());
      expect(known.status).toBe(unknown.status);
      expect(await known.text()).toBe(await unknown.text());
    }
  });

  it('limits magic-link mails per address (whatever the IP) with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (await api.post('/api/auth/sign-in/magic-link', { email: 'flood@example.test' }, from())).status,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // Password sign-ins are limited per account and address together: see auth-lockout.test.ts.
  });

  it('counts only failed password sign-ins against an address', async () => {
    await signUp('often@example.test');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const body = { email: 'often@example.test', password: 'correct horse battery' };
      statuses.push((await api.post('/api/auth/sign-in/email', body, from())).status);
    }
    expect(statuses).toEqual(Array(12).fill(200));
  });

  it('limits attempts per IP (whatever the address) with 429, shared through the database', async () => {
    const same = { 'x-forwarded-for': '192.0.2.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await api.post('/api/auth/request-password-reset', { email: `p${i}@example.test` }, same)).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const { rows } = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "rateLimit" WHERE key LIKE '192.0.2.77%'`,
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
    const signUps: number[] = [];
    for (let i = 0; i < 22; i++) {
      signUps.push(
        (
          await api.post(
            '/api/auth/sign-up/email',
            { email: `ip${i}@example.test`, password: 'correct horse battery', name: 'I' },
            { 'x-forwarded-for': '192.0.2.78' },
          )
        ).status,
      );
    }
    expect(signUps.filter((s) => s === 429)).toHaveLength(2);
  });

  it('sets the session cookie HttpOnly and SameSite=Lax (Secure behind https)', async () => {
    const { res } = await signUp('cookie@example.test');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('caseroom.session_token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const https = await startTestServer({ env: { PUBLIC_URL: 'https://caseroom.example' } });
    try {
      const r = await client(https.url).post('/api/auth/sign-up/email', {
        email: 's@example.test',
        password: 'correct horse battery',
        name: 'S',
      });
      const secure = r.headers.getSetCookie().find((c) => c.includes('session_token='))!;
      expect(secure).toMatch(/^__Secure-caseroom\.session_token=.*; Secure/i);
    } finally {
      await https.close();
    }
  });

  it('refuses cookie-authenticated writes from another origin; bearer and same-origin pass', async () => {
    const { res, token } = await signUp('csrf@example.test');
    const cookie = cookieOf(res);
    const write = (headers: Record<string, string>) =>
      api.post('/api/functions/users-update', { data: { name: 'Changed' } }, headers);
    const evil = await write({ cookie, origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toEqual({
      error: { status: 'permission-denied', message: 'Cross-site request refused' },
    });
    expect((await write({ cookie })).status).toBe(403); // no Origin at all
    expect((await write({ cookie, origin: server.url })).status).toBe(200);
    expect((await write({ authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await api.get('/api/me', { cookie })).status).toBe(200); // reads need no Origin
  });

  it('after logout refuses the old token on the API and cuts the chat socket within 5 s', async () => {
    const { token, user } = await signUp('leaver@example.test');
    const auth = { authorization: `Bearer ${token}` };
    const chatToken = (
      (await (await api.post('/api/functions/chat-getToken', { data: null }, auth)).json()) as {
        result: string;
      }
    ).result;
    const connect = () =>
      new WebSocket(
        `${server.wsUrl}/chat/connect?api_key=${server.config.chatApiKey}&authorization=${chatToken}&user_id=${user.id}`,
      );
    const socket = connect();
    await new Promise((resolve) => socket.once('message', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    const frames: string[] = [];
    socket.on('message', (d) => frames.push(String(d)));
    await new Promise((r) => setTimeout(r, 1100)); // the chat token's iat is in whole seconds
    const out = await api.post('/api/auth/sign-out', {}, auth);
    const signedOutAt = Date.now();
    expect(out.status).toBe(200);
    expect((await api.get('/api/me', auth)).status).toBe(401);
    expect((await closed) - signedOutAt).toBeLessThan(5000);
    expect(frames.some((f) => f.includes('"code":40'))).toBe(true);
    const again = connect();
    const first = await new Promise<string>((resolve) => again.once('message', (d) => resolve(String(d))));
    expect(JSON.parse(first)).toMatchObject({ type: 'connection.error', error: { code: 40 } });
    again.close();
  });

  it('hands out chat tokens that expire within 5 minutes', async () => {
    const { token } = await signUp('short.chat@example.test');
    const jwt = (
      (await (
        await api.post('/api/functions/chat-getToken', { data: null }, { authorization: `Bearer ${token}` })
      ).json()) as { result: string }
    ).result;
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as {
      iat: number;
      exp: number;
    };
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(300);
  });

  it('shows the sadmin claim in get-session and /api/me', async () => {
    const { token, user } = await signUp('boss@example.test');
    const auth = { authorization: `Bearer ${token}` };
    expect(
      ((await (await api.get('/api/auth/get-session', auth)).json()) as { claims: object }).claims,
    ).toEqual({});
    await server.db.query('UPDATE profiles SET sadmin = true WHERE id = $1', [user.id]);
    expect(
      ((await (await api.get('/api/auth/get-session', auth)).json()) as { claims: object }).claims,
    ).toEqual({ sadmin: true });
    expect(((await (await api.get('/api/me', auth)).json()) as { claims: object }).claims).toEqual({
      sadmin: true,
    });
  });

  it('serves the dev outbox outside production only', async () => {
    await signUp('outbox@example.test');
    const list = (await (await api.get('/dev/mail.json')).json()) as Array<{
      to: string;
      subject: string;
      text: string;
      html: string;
      date: string;
    }>;
    expect(list[0]).toMatchObject({
      to: 'outbox@example.test',
      subject: 'Confirm your e-mail address for Caseroom',
    });
    expect(list[0]!.html).toMatch(/<a href=/);
    const dates = list.map((m) => Date.parse(m.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect((await api.get('/dev/mail')).headers.get('content-type')).toMatch(/text\/html/);
    const prod = await startTestServer({
      env: {
        NODE_ENV: 'production',
        AUTH_SECRET: 'x'.repeat(32),
        CHAT_API_SECRET: 'y'.repeat(32),
        CHAT_API_KEY: 'prod-api-key',
      },
    });
    try {
      expect((await client(prod.url).get('/dev/mail.json')).status).toBe(404);
      expect((await client(prod.url).get('/dev/mail')).status).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
