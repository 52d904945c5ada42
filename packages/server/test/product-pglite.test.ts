import type { Caseplan } from '@caseroom/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * The default deployment (embedded PGlite, one connection shared by auth, product and chat): the demo seed,
 * sign-in, reads and chat-getToken work without the modules waiting on each other.
 */
describe('product on embedded PGlite', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: 'pglite', env: { SEED_DEMO: '1' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('seeds twice, signs in, reads case plans and hands out a chat token', async () => {
    const seed = await server.app.product.seedDemo();
    const res = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'maria@caseroom.test', password: 'caseroom-demo' }),
    });
    expect(res.status).toBe(200);
    const auth = { authorization: `Bearer ${res.headers.get('set-auth-token')}` };
    const caseplans = (await (
      await fetch(`${server.url}/api/caseplans`, { headers: auth })
    ).json()) as Caseplan[];
    expect(caseplans.map((c) => c.id)).toEqual(seed.caseplanIds);
    const call = await fetch(`${server.url}/api/functions/chat-getToken`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"data":null}',
    });
    expect(call.status).toBe(200);
    expect(((await call.json()) as { result: string }).result.split('.')).toHaveLength(3);
  });
});
