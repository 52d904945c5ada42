import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../src/product/auth/address-limits.js';
import { client } from './auth-support.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Failed password attempts from strangers must not lock the owner out: the hard limit is per account and
 * address together; the account alone only slows down. Clients at many addresses through X-Forwarded-For
 * behind one trusted proxy (TRUST_PROXY=1).
 */
describe('password sign-in limits', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  const owner = { email: 'owner@example.test', password: 'the owners own password' };
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const signIn = (password: string, ip: string) =>
    api.post('/api/auth/sign-in/email', { email: owner.email, password }, from(ip));

  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '1' } });
    api = client(server.url);
    const res = await api.post('/api/auth/sign-up/email', { ...owner, name: 'Owner' }, from('10.9.0.1'));
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lets the owner sign in with the right password after many wrong ones from other addresses', async () => {
    // 25 strangers at 25 addresses, in parallel, and one stranger at one address, one after another.
    const spread = await Promise.all(
      Array.from({ length: 25 }, (_, i) => signIn(`wrong guess ${i}`, `10.66.0.${i + 1}`)),
    );
    expect(spread.map((r) => r.status)).toEqual(Array(25).fill(401));
    const single: number[] = [];
    for (let i = 0; i < SIGN_IN_LIMITS.pairMax + 2; i++) {
      single.push((await signIn(`wrong again ${i}`, '10.77.0.1')).status);
    }
    expect(single).toEqual([...Array(SIGN_IN_LIMITS.pairMax).fill(401), 429, 429]);
    // That address stays limited for this account, even with the right password...
    expect((await signIn(owner.password, '10.77.0.1')).status).toBe(429);

    // ...while the owner, at an address of their own, signs in, also after a typo of their own.
    expect((await signIn('a typo of mine', '10.9.0.1')).status).toBe(401);
    const ok = await signIn(owner.password, '10.9.0.1');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { user: { email: string } }).user.email).toBe(owner.email);
    // From a new address too (a phone on another network).
    expect((await signIn(owner.password, '10.9.5.5')).status).toBe(200);
  }, 60_000);

  it('slows attempts on an account under attack rather than refusing them', async () => {
    const { rows } = await server.db.query<{ count: number }>(
      'SELECT count FROM auth_address_limits WHERE key = $1',
      [`/sign-in/email:${owner.email}`],
    );
    // The failures of the first test count on the account; refused attempts (429) and successes do not.
    expect(rows[0]!.count).toBe(25 + SIGN_IN_LIMITS.pairMax + 1);
    const started = Date.now();
    expect((await signIn(owner.password, '10.9.0.1')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SIGN_IN_LIMITS.maxDelayMs);
  });
});
