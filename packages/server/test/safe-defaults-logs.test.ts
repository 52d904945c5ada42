import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers/raw-http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** The request log lines (pino JSON) of a captured log. */
function requestLines(log: string): Array<{ msg: string; req?: { url: string; remoteAddress: string } }> {
  return log
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { msg: string; req?: { url: string; remoteAddress: string } });
}

/** TRUST_PROXY=1 is one hop: the address the proxy appended, never one the client wrote before it. */
describe('client address behind one trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '1', LOG_LEVEL: 'info' }, captureLog: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('limits and logs the address the proxy saw, whatever the client forged before it', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      // The client sent "X-Forwarded-For: 198.51.100.<i>"; the proxy appended the address it saw.
      const res = await rawRequest(`${server.url}/api/auth/request-password-reset`, {
        method: 'POST',
        headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.9` },
        json: { email: `forger${i}@example.test` },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const { rows } = await server.db.query<{ key: string }>(`SELECT key FROM "rateLimit"`);
    expect(rows.some((r) => r.key.startsWith('203.0.113.9'))).toBe(true);
    expect(rows.some((r) => r.key.includes('198.51.100.'))).toBe(false);

    const logged = requestLines(server.logText())
      .filter((l) => l.req?.url === '/api/auth/request-password-reset')
      .map((l) => l.req!.remoteAddress);
    expect(logged).toHaveLength(12);
    expect(new Set(logged)).toEqual(new Set(['203.0.113.9']));
  });
});

/** Query strings carry tokens (chat JWTs, magic-link, reset and verification codes): the log never shows them. */
describe('request log', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { LOG_LEVEL: 'info' }, captureLog: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('drops query strings and path tokens from every logged request', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoibWFyaWEifQ.c2VjcmV0LXNpZ25hdHVyZS1ub3QtcmVhbA';
    const secrets = [
      'SECRETmagic0001',
      'SECRETreset0002',
      'SECRETverify003',
      'SECRETaction004',
      'SECRETpath00005',
    ];
    const paths = [
      `/api/auth/magic-link/verify?token=${secrets[0]}&email=a%40example.test`,
      `/api/auth/reset-password/${secrets[4]}?callbackURL=%2Fauth%2Freset`,
      `/api/auth/verify-email?token=${secrets[2]}`,
      `/_action?token=${secrets[3]}&state=%2Fapp`,
      `/auth/reset?token=${secrets[1]}`,
      `/chat/channels?api_key=${server.config.chatApiKey}&authorization=${jwt}`,
      `/?redirectTo=%2Fapp%2Forganizations%2Fo1%3Finvite%3D${secrets[3]}`,
    ];
    for (const path of paths) await rawRequest(`${server.url}${path}`);
    // The chat socket carries its JWT in the query of the upgrade request.
    const socket = new WebSocket(
      `${server.wsUrl}/chat/connect?api_key=${server.config.chatApiKey}&authorization=${jwt}&user_id=maria`,
    );
    await new Promise((resolve) => socket.once('close', resolve).once('error', resolve));

    const log = server.logText();
    const urls = requestLines(log).flatMap((l) => (l.req ? [l.req.url] : []));
    expect(urls).toEqual(
      expect.arrayContaining([
        '/api/auth/magic-link/verify',
        '/api/auth/reset-password/[redacted]',
        '/api/auth/verify-email',
        '/_action',
        '/auth/reset',
        '/chat/channels',
        '/chat/connect',
      ]),
    );
    for (const secret of [jwt, ...secrets]) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/token=|authorization=|eyJ[\w-]+\.eyJ/);
  });
});
