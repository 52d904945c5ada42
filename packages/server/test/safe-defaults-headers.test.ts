import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawResponse } from './helpers/raw-http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Every kind of answer: the web app, a static asset, the SPA fallback, API, chat, auth, errors, health. */
async function answers(server: TestServer): Promise<Array<[string, RawResponse]>> {
  const requests: Array<[string, Parameters<typeof rawRequest>[1]]> = [
    ['/', {}],
    ['/app/chat/messaging/x', {}],
    ['/healthz', {}],
    ['/api/config', {}],
    ['/api/me', {}],
    ['/api/nope', {}],
    ['/chat/nope', {}],
    [`/chat/channels?api_key=${server.config.chatApiKey}`, { method: 'POST', json: {} }],
    ['/api/auth/get-session', {}],
    [
      '/api/auth/sign-in/email',
      { method: 'POST', json: { email: 'a@example.test', password: 'x'.repeat(9) } },
    ],
    ['/dev/mail.json', {}],
  ];
  const out: Array<[string, RawResponse]> = [];
  for (const [p, options] of requests) out.push([p, await rawRequest(`${server.url}${p}`, options)]);
  return out;
}

/** Security headers on every answer (@fastify/helmet). */
describe('security headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends the CSP, frame-ancestors, nosniff and Referrer-Policy on every answer, and no HSTS over http', async () => {
    for (const [p, res] of await answers(server)) {
      const csp = String(res.headers['content-security-policy']);
      expect({ p, csp }).toEqual({ p, csp: expect.stringContaining("frame-ancestors 'none'") });
      expect(csp).toContain("default-src 'self'");
      expect(csp).toMatch(/script-src 'self'[^;]*;/);
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('lets images and media come from the app, blob: and data: only (chat files as object URLs)', async () => {
    for (const [p, res] of await answers(server)) {
      const csp = String(res.headers['content-security-policy']);
      const sources = (name: string) =>
        csp
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .find(([directive]) => directive === name)
          ?.slice(1)
          .sort();
      expect({ p, img: sources('img-src'), media: sources('media-src') }).toEqual({
        p,
        img: ["'self'", 'blob:', 'data:'],
        media: ["'self'", 'blob:', 'data:'],
      });
    }
  });

  it.skipIf(!fs.existsSync(path.join(WEB_DIST, 'index.html')))(
    "allows index.html's inline script by its hash and nothing else inline",
    async () => {
      const html = fs.readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
      const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(inline.length).toBeGreaterThan(0);
      const csp = String((await rawRequest(`${server.url}/`)).headers['content-security-policy']);
      const scriptSrc = /script-src ([^;]*)/.exec(csp)![1]!;
      for (const script of inline) {
        const hash = crypto.createHash('sha256').update(script).digest('base64');
        expect(scriptSrc).toContain(`'sha256-${hash}'`);
      }
      expect(scriptSrc).not.toContain('unsafe-inline');
      expect(scriptSrc).not.toContain('unsafe-eval');
    },
  );

  it('sends HSTS when PUBLIC_URL is https', async () => {
    const https = await startTestServer({ env: { PUBLIC_URL: 'https://caseroom.example' } });
    try {
      for (const [, res] of await answers(https)) {
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
        expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
      }
    } finally {
      await https.close();
    }
  });
});
