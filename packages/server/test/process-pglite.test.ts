import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runServerExpectingFailure, startServerProcess } from './helpers/process.js';

/**
 * The default path of `npm start`: the built server on embedded PGlite under DATA_DIR, with demo data.
 * Proves health, demo sign-in, persistence across a restart, graceful shutdown and fail-fast config.
 */
describe('server process on the embedded database', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
  });

  async function tempDir() {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'caseroom-data-'));
    dirs.push(dir);
    return dir;
  }

  it('serves health and config, keeps data across a restart, and shuts down cleanly', async () => {
    const dataDir = await tempDir();
    let server = await startServerProcess({ DATA_DIR: dataDir });
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const config = (await (await fetch(`${server.url}/api/config`)).json()) as Record<string, unknown>;
    expect(config.chatBaseUrl).toBe('/chat');
    expect(typeof config.chatApiKey).toBe('string');

    const demo = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'maria@caseroom.test', password: 'caseroom-demo' }),
    });
    expect(demo.status).toBe(200);

    const email = `new-${Date.now()}@example.test`;
    const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'a-long-password', name: 'New Person' }),
    });
    expect(signUp.status).toBe(200);
    expect(await server.stop()).toBe(0);

    server = await startServerProcess({ DATA_DIR: dataDir });
    const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'a-long-password' }),
    });
    expect(signIn.status).toBe(200);
    expect(await server.stop()).toBe(0);
  }, 120_000);

  it('fails fast on a bad variable and names it', async () => {
    const bad = await runServerExpectingFailure({ PORT: 'not-a-port' });
    expect(bad.code).not.toBe(0);
    expect(bad.output).toContain('PORT');
    const badDb = await runServerExpectingFailure({ DATABASE_URL: 'mysql://nope' });
    expect(badDb.code).not.toBe(0);
    expect(badDb.output).toContain('DATABASE_URL');
  });
});
