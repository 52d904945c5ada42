import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TokenManager } from '../transport/token-manager.js';
import { FileCache } from './file-cache.js';

/** A real HTTP server on loopback standing in for the chat file route: counts requests, checks the token. */
interface Seen {
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
}
let server: http.Server;
let origin: string;
let seen: Seen[] = [];
let expiredTokens = new Set<string>();
const FILE_ID = 'upl_0123456789abcdef';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const authorization = req.headers.authorization;
    seen.push({ path: url.pathname, query: url.searchParams, authorization });
    // A little latency, so that concurrent requests overlap.
    setTimeout(() => {
      if (authorization !== undefined && expiredTokens.has(authorization)) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 40, message: 'token expired', StatusCode: 401 }));
      } else if (authorization !== 'token-a' && authorization !== 'token-b') {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 5, message: 'no token', StatusCode: 401 }));
      } else if (url.pathname.includes('missing')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 16, message: 'file not found', StatusCode: 404 }));
      } else {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.from(`${url.pathname}?${url.searchParams.get('w') ?? ''}`));
      }
    }, 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
  expiredTokens = new Set();
});

function cacheWith(provider: string | (() => Promise<string>) = 'token-a') {
  const tokens = new TokenManager(provider);
  const revoked: string[] = [];
  const cache = new FileCache({
    apiKey: 'key1',
    baseUrl: `${origin}/chat`,
    fetch: globalThis.fetch.bind(globalThis),
    tokens: () => tokens,
    revokeObjectURL: (url) => {
      revoked.push(url);
      URL.revokeObjectURL(url);
    },
  });
  return { cache, revoked };
}

describe('FileCache (product-spec §7: images fetched with GET as blobs and cached)', () => {
  it('downloads a chat file once per session and size, with the token, even for concurrent requests', async () => {
    const { cache } = cacheWith();
    const url = `/chat/files/${FILE_ID}/photo.png`;
    const [a, b, c] = await Promise.all([
      cache.fetchBlob(url, { w: 400, h: 300 }),
      cache.fetchBlob(url, { w: 400, h: 300 }),
      cache.fetchBlob(url, { w: 400, h: 300 }),
    ]);
    expect(a).toMatch(/^blob:/);
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(await cache.fetchBlob(url, { w: 400, h: 300 })).toBe(a);
    expect(cache.cached(url, { w: 400, h: 300 })).toBe(a);
    expect(cache.cached(url, { w: 401, h: 300 })).toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.path).toBe(`/chat/files/${FILE_ID}/photo.png`);
    expect(seen[0]!.authorization).toBe('token-a');
    expect(seen[0]!.query.get('api_key')).toBe('key1');
    expect(seen[0]!.query.get('w')).toBe('400');
    expect(seen[0]!.query.get('h')).toBe('300');
    // The token never rides in the query of a blob download.
    expect(seen[0]!.query.has('authorization')).toBe(false);
    const blob = await (await fetch(a)).text();
    expect(blob).toBe(`/chat/files/${FILE_ID}/photo.png?400`);

    // Another size is another download; an absolute URL on the chat origin is the same file.
    await cache.fetchBlob(url, { w: 800 });
    await cache.fetchBlob(`${origin}/chat/files/${FILE_ID}/photo.png`, { w: 800 });
    expect(seen).toHaveLength(2);
    expect(cache.stats).toEqual({ fetches: 2, hits: 4, held: 2 });
  });

  it('hands other URLs back untouched and never sends them the token', async () => {
    const { cache } = cacheWith();
    const external = [
      'https://media.giphy.com/media/abc/giphy.gif',
      `http://elsewhere.test/chat/files/${FILE_ID}/photo.png`,
      'data:image/png;base64,AAAA',
    ];
    for (const url of external) {
      expect(await cache.fetchBlob(url, { w: 10 })).toBe(url);
      expect(cache.mediaUrl(url)).toBe(url);
    }
    expect(cache.isChatFile(`/chat/files/${FILE_ID}/x.pdf`)).toBe(true);
    expect(cache.isChatFile('/chat/files/short/x.pdf')).toBe(false);
    expect(seen).toHaveLength(0);
  });

  it('gives media elements a URL with api_key and the token in the query', async () => {
    const { cache } = cacheWith();
    await cache.fetchBlob(`/chat/files/${FILE_ID}/a.png`); // loads the token
    const media = new URL(cache.mediaUrl(`/chat/files/${FILE_ID}/voice.webm`));
    expect(media.origin).toBe(origin);
    expect(media.pathname).toBe(`/chat/files/${FILE_ID}/voice.webm`);
    expect(media.searchParams.get('api_key')).toBe('key1');
    expect(media.searchParams.get('authorization')).toBe('token-a');
  });

  it('does not cache a failure, refreshes an expired token once, and names no token in errors', async () => {
    const { cache } = cacheWith();
    const missing = `/chat/files/${FILE_ID}/missing.png`;
    const error = await cache.fetchBlob(missing).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, code: 16 });
    expect(String((error as Error).message)).not.toContain('token-a');
    await cache.fetchBlob(missing).catch(() => undefined);
    expect(seen).toHaveLength(2);

    let calls = 0;
    const refreshed = cacheWith(() => Promise.resolve(++calls === 1 ? 'token-old' : 'token-b')).cache;
    expiredTokens.add('token-old');
    seen = [];
    expect(await refreshed.fetchBlob(`/chat/files/${FILE_ID}/p.png`)).toMatch(/^blob:/);
    expect(seen.map((s) => s.authorization)).toEqual(['token-old', 'token-b']);
  });

  it('revokes every object URL on clear, and a download finishing after it is not kept', async () => {
    const { cache, revoked } = cacheWith();
    const a = await cache.fetchBlob(`/chat/files/${FILE_ID}/a.png`);
    const late = cache.fetchBlob(`/chat/files/${FILE_ID}/b.png`);
    cache.clear();
    await expect(late).rejects.toThrow(/disconnected/);
    expect(revoked).toHaveLength(2);
    expect(revoked[0]).toBe(a);
    expect(cache.stats.held).toBe(0);
    // A new session downloads again.
    await cache.fetchBlob(`/chat/files/${FILE_ID}/a.png`);
    expect(seen.filter((s) => s.path.endsWith('/a.png'))).toHaveLength(2);
  });
});

describe('client.files', () => {
  it('is cleared by disconnectUser()', async () => {
    const fake = new FakeChatServer();
    const client = await connectFakeClient(fake, { id: 'amy', name: 'Amy' });
    const cleared: number[] = [];
    const clear = client.files.clear.bind(client.files);
    client.files.clear = () => {
      cleared.push(client.files.stats.held);
      clear();
    };
    expect(client.files.mediaUrl('https://example.test/a.mp4')).toBe('https://example.test/a.mp4');
    await client.disconnectUser();
    expect(cleared).toHaveLength(1);
  });
});
