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

  it('reports the database (and no Redis without REDIS_URL) as ready', async () => {
    expect(await probe('/readyz')).toEqual({
      status: 200,
      body: { status: 'ok', checks: { database: 'ok' } },
    });
    expect(await probe('/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('answers 503 draining on /readyz once the node drains (SIGTERM), while /healthz stays up', async () => {
    server.app.drain();
    expect(await probe('/readyz')).toEqual({
      status: 503,
      body: { status: 'draining', checks: { database: 'ok' } },
    });
    expect(await probe('/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
  });
});
