import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../src/cli/admin.js';
import { openPglite } from '../src/platform/db.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** `npm run admin -- grant-sadmin|revoke-sadmin EMAIL`, on PostgreSQL and on the embedded database. */
describe('admin CLI', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'Boss@Example.test', password: 'correct horse battery', name: 'Boss' }),
    });
    ({ token } = (await res.json()) as { token: string });
  });
  afterAll(async () => {
    await server?.close();
  });

  const env = () => ({ NODE_ENV: 'test', DATABASE_URL: server.config.databaseUrl ?? '' });
  const claims = async () => {
    const res = await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { claims: unknown }).claims;
  };

  it('grants and revokes the sadmin claim, seen by /api/me at once (address case-insensitive)', async () => {
    expect(await claims()).toEqual({});
    expect(await runAdmin(['grant-sadmin', 'boss@example.test'], env())).toMatchObject({ code: 0 });
    expect(await claims()).toEqual({ sadmin: true });
    expect(await runAdmin(['revoke-sadmin', 'BOSS@example.test'], env())).toMatchObject({ code: 0 });
    expect(await claims()).toEqual({});
  });

  it('reports an unknown address and bad usage', async () => {
    expect(await runAdmin(['grant-sadmin', 'nobody@example.test'], env())).toEqual({
      code: 67,
      out: 'No account with the address nobody@example.test\n',
    });
    expect((await runAdmin([], env())).code).toBe(64);
    expect((await runAdmin(['grant-sadmin'], env())).code).toBe(64);
    expect((await runAdmin(['make-coffee', 'x'], env())).code).toBe(64);
  });

  it('works on the embedded database under DATA_DIR', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'caseroom-admin-'));
    try {
      expect((await runAdmin(['grant-sadmin', 'lite@example.test'], { DATA_DIR: dir })).code).toBe(67);
      const db = await openPglite(path.join(dir, 'pglite'));
      await db.query(
        `INSERT INTO "user" (id, name, email, "emailVerified") VALUES ('u1', 'Lite', 'lite@example.test', true)`,
      );
      await db.close();
      expect((await runAdmin(['grant-sadmin', 'lite@example.test'], { DATA_DIR: dir })).code).toBe(0);
      const check = await openPglite(path.join(dir, 'pglite'));
      const { rows } = await check.query<{ sadmin: boolean }>(`SELECT sadmin FROM profiles WHERE id = 'u1'`);
      await check.close();
      expect(rows).toEqual([{ sadmin: true }]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
