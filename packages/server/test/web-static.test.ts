import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser } from './chat-support.js';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose answer's body is left as sent (fetch would decompress it). */
function rawRequest(url: string, options: http.RequestOptions, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A POST of JSON whose answer's body is left as sent. */
function rawPost(url: string, headers: Record<string, string>, body: unknown): Promise<RawResponse> {
  const options = { method: 'POST', headers: { ...headers, 'content-type': 'application/json' } };
  return rawRequest(url, options, JSON.stringify(body));
}

/** A GET whose body is left as sent. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(url, { headers });
}

/** The web build as the server serves it: precompressed siblings, cache headers, the single-page fallback. */
describe('web dist serving', () => {
  let server: TestServer;
  let dist: string;
  const script = `export const greeting = ${JSON.stringify('hello '.repeat(2000))};\n`;
  const html = `<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(50)}</body></html>\n`;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'caseroom-web-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    const write = (name: string, text: string) => {
      const file = path.join(dist, name);
      fs.writeFileSync(file, text);
      fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
      fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
    };
    write('assets/app-abc123.js', script);
    write('index.html', html);
    fs.writeFileSync(path.join(dist, 'assets/plain-abc123.css'), 'body{}');
    server = await startTestServer({ database: 'pglite', productChatRules: false, env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends the brotli file to a client that accepts br, and it decompresses to the original', async () => {
    const res = await rawGet(`${server.url}/assets/app-abc123.js`, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.length).toBeLessThan(script.length / 10);
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it('sends gzip to a client that accepts only gzip', async () => {
    const res = await rawGet(`${server.url}/assets/app-abc123.js`, { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(res.body).toString()).toBe(script);
  });

  it('sends the file as it is to a client without Accept-Encoding', async () => {
    const res = await rawGet(`${server.url}/assets/app-abc123.js`);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(script);
  });

  it('falls back to the file as it is when there is no compressed sibling', async () => {
    const res = await rawGet(`${server.url}/assets/plain-abc123.css`, { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe('body{}');
  });

  it('sends the single-page app compressed and uncached for client-side routes', async () => {
    for (const route of ['/', '/app/chat/messaging/general']) {
      const res = await rawGet(server.url + route, { 'accept-encoding': 'br' });
      expect(res.status, route).toBe(200);
      expect(res.headers['content-encoding'], route).toBe('br');
      expect(res.headers['content-type'], route).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], route).toBe('no-cache');
      expect(zlib.brotliDecompressSync(res.body).toString(), route).toBe(html);
    }
    const plain = await rawGet(`${server.url}/app`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(html);
  });

  it('answers 404 for a missing asset and for unknown API routes', async () => {
    expect((await rawGet(`${server.url}/assets/missing.js`, { 'accept-encoding': 'br' })).status).toBe(404);
    expect((await rawGet(`${server.url}/api/nothing-here`, { 'accept-encoding': 'br' })).status).toBe(404);
  });

  it('compresses JSON answers of 1 KB and more for clients that accept it, and leaves small ones alone', async () => {
    const maria = await chatUser(server, 'maria');
    const url = new URL('/chat/channels/messaging/compressed/query', server.url);
    url.searchParams.set('api_key', server.config.chatApiKey);
    const auth = { authorization: maria.token, 'auth-type': 'jwt' };
    const body = { data: { members: ['maria'] } };
    const plain = await rawPost(url.toString(), auth, body);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await rawPost(url.toString(), { ...auth, 'accept-encoding': 'br, gzip' }, body);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    const decoded = JSON.parse(zlib.brotliDecompressSync(br.body).toString()) as { channel: { cid: string } };
    expect(decoded.channel.cid).toBe('messaging:compressed');

    const gz = await rawPost(url.toString(), { ...auth, 'accept-encoding': 'gzip' }, body);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.body).toString())).toMatchObject({
      channel: { cid: 'messaging:compressed' },
    });

    const refused = await rawPost(
      url.toString(),
      { authorization: 'not-a-token', 'accept-encoding': 'br' },
      body,
    );
    expect(refused.status).toBe(401);
    expect(refused.headers['content-encoding']).toBeUndefined();
  });
});
