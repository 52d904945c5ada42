import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers/raw-http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** An address of this machine that is not loopback (a request to it comes from it), if the machine has one. */
const outsideAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

/** The dev outbox holds sign-in links: it answers only requests from this machine, never through a proxy. */
describe('dev outbox', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Listening on every address, as `npm start` does (HOST defaults to 0.0.0.0), behind a trusted proxy.
    server = await startTestServer({ host: '0.0.0.0', env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a loopback request naming this machine', async () => {
    for (const path of ['/dev/mail.json', '/dev/mail']) {
      expect((await rawRequest(`${server.url}${path}`)).status).toBe(200);
      const localhost = await rawRequest(`${server.url}${path}`, {
        headers: { host: `localhost:${server.config.port}` },
      });
      expect(localhost.status).toBe(200);
    }
  });

  it('refuses requests through a proxy, under another host name, or from another machine', async () => {
    const refusals: Array<Record<string, string>> = [
      // A proxy on this machine connects from loopback for every visitor: its forwarding header gives it away.
      { 'x-forwarded-for': '127.0.0.1' },
      { 'x-forwarded-for': '203.0.113.7' },
      { forwarded: 'for=203.0.113.7' },
      { 'x-real-ip': '127.0.0.1' },
      // DNS rebinding: another site's page, its name pointed at 127.0.0.1, sends its own name as Host.
      { host: `evil.example:${server.config.port}` },
    ];
    for (const headers of refusals) {
      for (const path of ['/dev/mail.json', '/dev/mail']) {
        const res = await rawRequest(`${server.url}${path}`, { headers });
        expect({ headers, path, status: res.status }).toEqual({ headers, path, status: 404 });
        expect(res.text).not.toContain('Dev outbox');
      }
    }
  });

  it.skipIf(!outsideAddress)(
    'refuses a request from a non-loopback address, whatever it claims',
    async () => {
      const url = `http://${outsideAddress}:${server.config.port}/dev/mail.json`;
      expect((await rawRequest(url)).status).toBe(404);
      expect(
        (
          await rawRequest(url, {
            headers: { host: `127.0.0.1:${server.config.port}`, 'x-forwarded-for': '127.0.0.1' },
          })
        ).status,
      ).toBe(404);
    },
  );
});

/** Links in mails come from PUBLIC_URL, never from the Host header a request names (link poisoning). */
describe('mail links', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_URL: 'https://caseroom.example', NODE_ENV: 'test' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function mailTo(email: string, subject: RegExp): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const { rows } = await server.db.query<{ text: string; subject: string }>(
        'SELECT text, subject FROM dev_outbox WHERE "to" = $1 ORDER BY id DESC',
        [email],
      );
      const mail = rows.find((r) => subject.test(r.subject));
      if (mail) return mail.text;
      await new Promise((r) => setTimeout(r, 50)); // mails are sent in the background
    }
    throw new Error(`no mail to ${email} with subject ${subject}`);
  }

  const links = (text: string) => text.match(/https?:\/\/[^\s]+/g) ?? [];

  it('builds verification, reset and magic-link links on PUBLIC_URL whatever the Host', async () => {
    const email = 'poison@example.test';
    const signUp = await rawRequest(`${server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { host: 'evil.example' },
      json: { email, password: 'correct horse battery', name: 'Poison Target' },
    });
    expect(signUp.status).toBe(200);
    const reset = await rawRequest(`${server.url}/api/auth/request-password-reset`, {
      method: 'POST',
      headers: { host: 'evil.example' },
      json: { email },
    });
    expect(reset.status).toBe(200);
    const magic = await rawRequest(`${server.url}/api/auth/sign-in/magic-link`, {
      method: 'POST',
      headers: { host: 'evil.example' },
      json: { email },
    });
    expect(magic.status).toBe(200);
    for (const subject of [/Confirm your e-mail/, /reset/i, /sign-in link/i]) {
      const found = links(await mailTo(email, subject));
      expect(found.length).toBeGreaterThan(0);
      for (const link of found) expect(link).toMatch(/^https:\/\/caseroom\.example\//);
    }
  });
});
