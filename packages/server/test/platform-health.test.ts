import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

/** `/healthz` is liveness (process and database); `/readyz` is readiness: each dependency, and draining. */
describe('health endpoints', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const probe = async (path: string) => {
    const res = await fetch(server.url + path);
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it('reports the database and the file storage (and no Redis without REDIS_URL) as ready', async () => {
    expect(await probe('/readyz')).toEqual({
      status: 200,
      body: { status: 'ok', checks: { database: 'ok', storage: 'ok' } },
    });
    expect(await probe('/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('answers 503 draining on /readyz once the node drains (SIGTERM), while /healthz stays up', async () => {
    server.app.drain();
    expect(await probe('/readyz')).toEqual({
      status: 503,
      body: { status: 'draining', checks: { database: 'ok', storage: 'ok' } },
    });
    expect(await probe('/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
  });
});

describe('readiness with a broken file storage', () => {
  it('answers 503 naming storage when the disk store cannot be written, while /healthz stays up', async () => {
    // DATA_DIR is a regular file: the store's folder DATA_DIR/files can never be made.
    const notADir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'caseroom-health-')), 'a-file');
    fs.writeFileSync(notADir, 'not a folder');
    const server = await startTestServer({ env: { DATA_DIR: notADir } });
    try {
      const res = await fetch(`${server.url}/readyz`);
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 503,
        body: { status: 'degraded', checks: { database: 'ok', storage: 'down' }, degraded: ['storage'] },
      });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
      fs.rmSync(path.dirname(notADir), { recursive: true, force: true });
    }
  });
});
