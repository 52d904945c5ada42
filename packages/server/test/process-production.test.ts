import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runServerExpectingFailure, startServerProcess } from './helpers/process.js';

/** Secrets of its own, as an operator sets them. */
const PROD = {
  NODE_ENV: 'production',
  CHAT_API_KEY: 'prod-key-5f2a9c',
  CHAT_API_SECRET: 'prod-chat-secret-0123456789abcdef',
  AUTH_SECRET: 'prod-auth-secret-0123456789abcdef',
  LOG_LEVEL: 'warn',
};

const signIn = (url: string, email: string, password: string) =>
  fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

/** The built server under NODE_ENV=production: no development secrets, no demo accounts with their password. */
describe('server process in production mode', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
  });

  it.each([
    ['CHAT_API_KEY', 'caseroom-dev-key'],
    ['CHAT_API_SECRET', 'caseroom-dev-chat-secret-change-me'],
    ['AUTH_SECRET', 'caseroom-dev-auth-secret-change-me'],
  ])('refuses to start with the development %s', async (variable, devValue) => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'caseroom-prod-'));
    dirs.push(dataDir);
    const run = await runServerExpectingFailure({ ...PROD, DATA_DIR: dataDir, [variable]: devValue });
    expect(run.code).toBe(78);
    expect(run.output).toContain(`Invalid configuration: ${variable} is the published development value`);
  });

  it('refuses SEED_DEMO=1 and an unset secret, naming the variable', async () => {
    const seeded = await runServerExpectingFailure({ ...PROD, SEED_DEMO: '1' });
    expect(seeded.code).toBe(78);
    expect(seeded.output).toContain('Invalid configuration: SEED_DEMO must be off in production');
    const unset = await runServerExpectingFailure({ ...PROD, AUTH_SECRET: '' });
    expect(unset.code).toBe(78);
    expect(unset.output).toContain('Invalid configuration: AUTH_SECRET is required in production');
  });

  it('disables demo accounts that still have the demo password in a production database', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'caseroom-prod-'));
    dirs.push(dataDir);
    // A development run leaves the demo data behind in the data directory...
    let server = await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO: '1' });
    expect((await signIn(server.url, 'maria@caseroom.test', 'caseroom-demo')).status).toBe(200);
    const session = (await (await signIn(server.url, 'noah@caseroom.test', 'caseroom-demo')).json()) as {
      token: string;
    };
    expect(await server.stop()).toBe(0);

    // ...and production on the same database neither signs them in nor keeps their sessions.
    server = await startServerProcess({ ...PROD, DATA_DIR: dataDir });
    try {
      for (const email of ['admin@caseroom.test', 'maria@caseroom.test', 'gary@caseroom.test']) {
        expect((await signIn(server.url, email, 'caseroom-demo')).status).toBe(401);
      }
      const me = await fetch(`${server.url}/api/me`, {
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(me.status).toBe(401);
      expect(server.output()).toContain('demo accounts had the published demo password');
      expect(server.output()).toContain('maria@caseroom.test');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);
});
