import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatServerApi } from '../src/chat/server-api.js';
import { CallableRegistry } from '../src/product/callables/registry.js';
import { runCallable } from '../src/product/callables/run.js';
import { ProductError } from '../src/product/errors.js';
import { userCallables } from '../src/product/users/callables.js';
import { client } from './auth-support.js';
import { startTestServer, type TestServer } from './helpers/server.js';

interface ProfileRow {
  name: string;
  photo: string | null;
  timezone: string | null;
  last_login: Date | null;
}

/**
 * `users-completeSignIn`, the login flow's second step (product-spec §4): new vs known account (new = signed in
 * less than 1000 ms after creation), the user record created with merge, lastLogin stamped, the sign-in-only
 * refusal of a just-created social account, and the §8 texts for what cannot be completed.
 */
describe('users-completeSignIn', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let ip = 0;
  /** A distinct client address per request (the per-IP limits are tested on their own). */
  const from = () => ({ 'x-forwarded-for': `10.2.${Math.floor(++ip / 250)}.${ip % 250}` });

  beforeAll(async () => {
    // No SMTP_URL: mails go to the dev outbox table, where the magic links are read.
    server = await startTestServer({ env: { TRUST_PROXY: '1' } });
    api = client(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function complete(token: string, data: unknown) {
    const res = await api.post('/api/functions/users-completeSignIn', { data }, bearer(token));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function signUp(email: string) {
    const res = await api.post(
      '/api/auth/sign-up/email',
      { email, password: 'correct horse battery', name: 'Complete Person' },
      from(),
    );
    expect(res.status).toBe(200);
    return (await res.json()) as { token: string; user: { id: string } };
  }

  async function signIn(email: string) {
    const res = await api.post(
      '/api/auth/sign-in/email',
      { email, password: 'correct horse battery' },
      from(),
    );
    expect(res.status).toBe(200);
    return (await res.json()) as { token: string; user: { id: string } };
  }

  /** Signs in by magic link (an account without a password, as a social one): mail from the dev outbox. */
  async function signInByLink(email: string) {
    const lastMail = async () =>
      (
        await server.db.query<{ id: string; text: string }>(
          'SELECT id, text FROM dev_outbox WHERE "to" = $1 ORDER BY id DESC LIMIT 1',
          [email],
        )
      ).rows[0];
    const before = (await lastMail())?.id;
    expect((await api.post('/api/auth/sign-in/magic-link', { email }, from())).status).toBe(200);
    // Mails go out in the background: wait for this one, not an earlier link to the same address.
    let mail = await lastMail();
    for (let i = 0; i < 100 && (!mail || mail.id === before); i++) {
      await new Promise((r) => setTimeout(r, 50));
      mail = await lastMail();
    }
    const token = /[?&]token=([A-Za-z]+)/.exec(mail?.text ?? '')?.[1];
    const res = await api.get(
      `/api/auth/magic-link/verify?token=${token}&email=${encodeURIComponent(email)}`,
      from(),
    );
    expect(res.status).toBe(200);
    return (await res.json()) as { token: string; user: { id: string } };
  }

  const profileOf = async (uid: string) =>
    (
      await server.db.query<ProfileRow>(
        'SELECT name, photo, timezone, last_login FROM profiles WHERE id = $1',
        [uid],
      )
    ).rows[0];

  /** Moves the account's creation back, so its next sign-in comes well after it. */
  const age = (uid: string, seconds: number) =>
    server.db.query(`UPDATE "user" SET "createdAt" = now() - make_interval(secs => $2) WHERE id = $1`, [
      uid,
      seconds,
    ]);

  it('treats a sign-in right after sign-up as new and creates the user record with merge', async () => {
    const { token, user } = await signUp('fresh@example.test');
    // A record the session hook made, with a field the account does not have: merged, not replaced.
    await server.db.query(`UPDATE profiles SET timezone = 'Europe/Oslo', name = '' WHERE id = $1`, [user.id]);
    const res = await complete(token, { mode: 'sign-up' });
    expect(res).toEqual({ status: 200, body: { result: { isNew: true } } });
    expect(await profileOf(user.id)).toMatchObject({ name: 'Complete Person', timezone: 'Europe/Oslo' });
  });

  it('creates the record of a new account when it is missing', async () => {
    const { token, user } = await signUp('no.record@example.test');
    await server.db.query('DELETE FROM profiles WHERE id = $1', [user.id]);
    expect((await complete(token, { mode: 'sign-up' })).body).toEqual({ result: { isNew: true } });
    expect(await profileOf(user.id)).toMatchObject({ name: 'Complete Person', photo: null });
  });

  it('treats a sign-in more than 1000 ms after creation as known (real timing) and stamps lastLogin', async () => {
    const { user } = await signUp('known@example.test');
    await new Promise((r) => setTimeout(r, 1100));
    const { token } = await signIn('known@example.test');
    const before = (await profileOf(user.id))!.last_login!;
    await new Promise((r) => setTimeout(r, 20));
    expect((await complete(token, { mode: 'sign-in' })).body).toEqual({ result: { isNew: false } });
    const after = await profileOf(user.id);
    expect(after!.last_login!.getTime()).toBeGreaterThan(before.getTime());
    expect(after!.name).toBe('Complete Person');
  });

  it('puts the threshold at 1000 ms: 999 ms is new, 1000 ms is known', async () => {
    const { token, user } = await signUp('edge@example.test');
    const setGap = (ms: number) =>
      server.db.query(
        `UPDATE "user" u SET "createdAt" = s."createdAt" - make_interval(secs => $2::float8 / 1000)
           FROM "session" s WHERE s.token = $3 AND u.id = $1`,
        [user.id, ms, token],
      );
    await setGap(999);
    expect((await complete(token, { mode: 'sign-in' })).body).toEqual({ result: { isNew: true } });
    await setGap(1000);
    expect((await complete(token, { mode: 'sign-in' })).body).toEqual({ result: { isNew: false } });
  });

  it('gives a known account whose record went missing a record with lastLogin', async () => {
    const { user } = await signUp('lost.record@example.test');
    await age(user.id, 5);
    const { token } = await signIn('lost.record@example.test');
    await server.db.query('DELETE FROM profiles WHERE id = $1', [user.id]);
    expect((await complete(token, { mode: 'sign-in' })).body).toEqual({ result: { isNew: false } });
    const record = await profileOf(user.id);
    expect(record?.name).toBe('Complete Person');
    expect(record?.last_login).toBeInstanceOf(Date);
  });

  it('in sign-in-only mode deletes a just-created account without a password: Account not found', async () => {
    const email = 'Stranger@example.test';
    const { token, user } = await signInByLink(email);
    const res = await complete(token, { mode: 'sign-in' });
    expect(res).toEqual({
      status: 404,
      body: {
        error: {
          status: 'not-found',
          message: 'Account not found',
          toast: `No account found for ${email.toLowerCase()}`,
        },
      },
    });
    const { rows } = await server.db.query('SELECT 1 FROM "user" WHERE id = $1', [user.id]);
    expect(rows).toEqual([]);
    expect(await profileOf(user.id)).toBeUndefined();
    // The session went with the account.
    expect((await api.get('/api/me', bearer(token))).status).toBe(401);
  });

  it('keeps a just-created account without a password in sign-up mode', async () => {
    const { token, user } = await signInByLink('joiner@example.test');
    expect((await complete(token, { mode: 'sign-up' })).body).toEqual({ result: { isNew: true } });
    expect(await profileOf(user.id)).toBeDefined();
    expect((await api.get('/api/me', bearer(token))).status).toBe(200);
  });

  it('keeps a known account without a password in sign-in-only mode', async () => {
    const first = await signInByLink('returning@example.test');
    await age(first.user.id, 5);
    const { token, user } = await signInByLink('returning@example.test');
    expect((await complete(token, { mode: 'sign-in' })).body).toEqual({ result: { isNew: false } });
    expect(await profileOf(user.id)).toBeDefined();
  });

  it('never deletes a password account, even new and in sign-in-only mode', async () => {
    const { token, user } = await signUp('password.new@example.test');
    expect((await complete(token, { mode: 'sign-in' })).body).toEqual({ result: { isNew: true } });
    const { rows } = await server.db.query('SELECT 1 FROM "user" WHERE id = $1', [user.id]);
    expect(rows).toHaveLength(1);
    expect((await api.get('/api/me', bearer(token))).status).toBe(200);
  });

  it.each([
    ['no data', undefined],
    ['no mode', {}],
    ['an unknown mode', { mode: 'admin' }],
    ['a mode of the wrong type', { mode: 1 }],
  ])('refuses %s with 400 invalid-argument and writes nothing', async (_label, data) => {
    const { token, user } = await signUp(`bad.${ip}@example.test`);
    await server.db.query('UPDATE profiles SET last_login = NULL WHERE id = $1', [user.id]);
    const res = await complete(token, data);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { status: 'invalid-argument' } });
    expect((await profileOf(user.id))?.last_login).toBeNull();
  });

  it('answers 401 without a session', async () => {
    const res = await api.post('/api/functions/users-completeSignIn', { data: { mode: 'sign-in' } });
    expect(res.status).toBe(401);
  });

  describe('callers the HTTP layer never produces (product-spec §8 texts)', () => {
    const registry = () =>
      new CallableRegistry().add(
        ...userCallables({ disconnectUser: async () => undefined } as never as ChatServerApi),
      );
    const run = (caller: { uid: string; sessionCreatedAt?: Date }) =>
      runCallable(registry(), server.db, server.app.chat.server, 'users-completeSignIn', caller, {
        data: { mode: 'sign-in' },
      }).then(
        () => undefined,
        (err: unknown) => err,
      );

    it('Account not loaded: no account for the caller', async () => {
      const err = await run({ uid: 'no-such-account', sessionCreatedAt: new Date() });
      expect(err).toBeInstanceOf(ProductError);
      expect(err).toMatchObject({ status: 'not-found', message: 'Account not loaded' });
    });

    it('User metadata not found: no sign-in time', async () => {
      const { user } = await signUp('no.metadata@example.test');
      expect(await run({ uid: user.id })).toMatchObject({
        status: 'failed-precondition',
        message: 'User metadata not found',
      });
    });

    it('Invalid user metadata: a sign-in time that is no time', async () => {
      const { user } = await signUp('bad.metadata@example.test');
      expect(await run({ uid: user.id, sessionCreatedAt: new Date(Number.NaN) })).toMatchObject({
        status: 'internal',
        message: 'Invalid user metadata',
      });
    });
  });
});
