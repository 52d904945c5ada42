import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { client, startSmtp, type Smtp } from './auth-support.js';

/** Mail flows through a real SMTP server on loopback: verification, password reset, magic link. */
describe('auth mail flows (SMTP)', () => {
  let smtp: Smtp;
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let ip = 0;
  /** A distinct client address per request (the per-IP limits are tested on their own). */
  const from = () => ({ 'x-forwarded-for': `10.1.${Math.floor(++ip / 250)}.${ip % 250}` });

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer({ env: { SMTP_URL: smtp.url, TRUST_PROXY: '1' } });
    api = client(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  async function signUp(email: string, password = 'correct horse battery') {
    const res = await api.post('/api/auth/sign-up/email', { email, password, name: 'Mail Person' }, from());
    expect(res.status).toBe(200);
    return (await res.json()) as { token: string; user: { id: string } };
  }

  it('sends a verification mail on sign-up (plain and HTML) and confirms the address with it', async () => {
    const { token } = await signUp('verify.me@example.test');
    const code = await smtp.waitFor('verify.me@example.test', /\/auth\/verify\?token=([\w.-]+)/);
    const raw = smtp.mails.find((m) => m.to.includes('verify.me@example.test'))!.raw;
    expect(raw).toMatch(/Content-Type: text\/plain/);
    expect(raw).toMatch(/Content-Type: text\/html/);
    expect(raw).toMatch(/Subject: Confirm your e-mail address/);
    const auth = { authorization: `Bearer ${token}` };
    expect(
      ((await (await api.get('/api/me', auth)).json()) as { emailVerified: boolean }).emailVerified,
    ).toBe(false);
    const res = await api.get(`/api/auth/verify-email?token=${code}`, from());
    expect(res.status).toBe(200);
    expect(
      ((await (await api.get('/api/me', auth)).json()) as { emailVerified: boolean }).emailVerified,
    ).toBe(true);
  });

  it('writes mails in the user language, falling back to English', async () => {
    const { token } = await signUp('norsk@example.test');
    await api.post(
      '/api/functions/users-update',
      { data: { language: 'nb' } },
      { authorization: `Bearer ${token}` },
    );
    await api.post('/api/auth/request-password-reset', { email: 'norsk@example.test' }, from());
    await smtp.waitFor('norsk@example.test', /Tilbakestill passordet/);
    await api.post(
      '/api/auth/sign-in/magic-link',
      { email: 'nobody.yet@example.test' },
      {
        ...from(),
        'accept-language': 'xx-YY',
      },
    );
    await smtp.waitFor('nobody.yet@example.test', /Your Caseroom sign-in link/);
  });

  it('resets a password: forgot -> mail -> verify the code -> reset; the code is single use', async () => {
    const { token: oldSession } = await signUp('forgetful@example.test');
    const forgot = await api.post(
      '/api/auth/request-password-reset',
      { email: 'forgetful@example.test' },
      from(),
    );
    expect(forgot.status).toBe(200);
    const code = await smtp.waitFor('forgetful@example.test', /\/auth\/reset\?token=(\w+)/);
    expect(code.length).toBeGreaterThanOrEqual(22); // >= 128 bits of [A-Za-z0-9]
    const check = await api.post('/api/password-reset/verify', { token: code });
    expect(await check.json()).toEqual({ email: 'forgetful@example.test' });
    const reset = await api.post(
      '/api/auth/reset-password',
      { token: code, newPassword: 'a brand new secret' },
      from(),
    );
    expect(reset.status).toBe(200);
    // The old session is revoked, the old password refused, the new one works, the code is spent.
    expect((await api.get('/api/me', { authorization: `Bearer ${oldSession}` })).status).toBe(401);
    const old = await api.post(
      '/api/auth/sign-in/email',
      { email: 'forgetful@example.test', password: 'correct horse battery' },
      from(),
    );
    expect(old.status).toBe(401);
    const fresh = await api.post(
      '/api/auth/sign-in/email',
      { email: 'forgetful@example.test', password: 'a brand new secret' },
      from(),
    );
    expect(fresh.status).toBe(200);
    const again = await api.post(
      '/api/auth/reset-password',
      { token: code, newPassword: 'another new secret' },
      from(),
    );
    expect(again.status).toBe(400);
    expect((await api.post('/api/password-reset/verify', { token: code })).status).toBe(400);
  });

  it('signs in with a magic link bound to its address, carrying ?state=, once', async () => {
    await signUp('magic@example.test');
    const sent = await api.post(
      '/api/auth/sign-in/magic-link',
      { email: 'magic@example.test', metadata: { state: '/app/chat/messaging/x' } },
      from(),
    );
    expect(await sent.json()).toEqual({ status: true });
    const link = await smtp.waitFor('magic@example.test', /(http:\/\/[^\s"<]+\/_action\?[^\s"<]+)/);
    const url = new URL(link.replace(/&amp;/g, '&'));
    expect(url.searchParams.get('state')).toBe('/app/chat/messaging/x');
    const token = url.searchParams.get('token')!;
    expect(token.length * Math.log2(52)).toBeGreaterThanOrEqual(128);
    const verify = (email: string) =>
      api.get(`/api/auth/magic-link/verify?token=${token}&email=${encodeURIComponent(email)}`, from());
    // Another address does not sign in and does not use the link up.
    const wrong = await verify('attacker@example.test');
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { code: string }).code).toBe('EMAIL_MISMATCH');
    const ok = await verify('MAGIC@example.test');
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { token: string; user: { email: string } };
    expect(body.user.email).toBe('magic@example.test');
    expect((await api.get('/api/me', { authorization: `Bearer ${body.token}` })).status).toBe(200);
    const replay = await verify('magic@example.test');
    expect(replay.status).toBe(302); // better-auth sends the browser to ?error=INVALID_TOKEN
    expect(replay.headers.get('location')).toMatch(/error=INVALID_TOKEN/);
  });

  it('lets a magic link expire after 15 minutes', async () => {
    await api.post('/api/auth/sign-in/magic-link', { email: 'late@example.test' }, from());
    const link = await smtp.waitFor('late@example.test', /(http:\/\/[^\s"<]+\/_action\?[^\s"<]+)/);
    const token = new URL(link.replace(/&amp;/g, '&')).searchParams.get('token')!;
    const { rows } = await server.db.query<{ ttl: number }>(
      `SELECT extract(epoch FROM "expiresAt" - "createdAt")::int AS ttl FROM verification WHERE value LIKE '%late@example.test%'`,
    );
    expect(rows[0]!.ttl).toBe(900);
    await server.db.query(
      `UPDATE verification SET "expiresAt" = now() - interval '1 second' WHERE value LIKE '%late@example.test%'`,
    );
    const res = await api.get(`/api/auth/magic-link/verify?token=${token}&email=late@example.test`, from());
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/error=INVALID_TOKEN/);
  });

  it('redeems one magic link exactly once under 1,000 concurrent attempts', async () => {
    await api.post('/api/auth/sign-in/magic-link', { email: 'race@example.test' }, from());
    const link = await smtp.waitFor('race@example.test', /(http:\/\/[^\s"<]+\/_action\?[^\s"<]+)/);
    const token = new URL(link.replace(/&amp;/g, '&')).searchParams.get('token')!;
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () =>
        api
          .get(`/api/auth/magic-link/verify?token=${token}&email=race@example.test`, from())
          .then(async (r) => {
            await r.arrayBuffer();
            return r.status;
          }),
      ),
    );
    const ok = answers.filter((s) => s === 200).length;
    // eslint-disable-next-line no-console -- the measured figure is part of the report
    console.log(`1000 concurrent redemptions in ${Date.now() - started} ms: ${ok} signed in`);
    expect(ok).toBe(1);
    expect(answers.filter((s) => s !== 200 && s !== 302)).toEqual([]);
  }, 120_000);
});
