import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signChatToken } from '../src/chat/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatCall, chatUser, openSocket, type ChatUserClient } from './chat-support.js';

/**
 * Link previews (chat-spec §3, §4, §5, §7): `GET /chat/og` against a test site on loopback (127.0.0.2, the only
 * allow-listed address, reached as `site.example.com`), and enrichment of sent messages as `message.updated`.
 * An internal listener on 127.0.0.1 counts connections: redirects to it must make none.
 */

let server: TestServer;
let site: http.Server;
let siteBase = '';
let internal: http.Server;
let internalPort = 0;
let internalConnections = 0;
let hugeBytesSent = 0;
let maria: ChatUserClient;
let noah: ChatUserClient;

const PAGES: Record<string, { type?: string; body: string } | ((res: http.ServerResponse) => void)> = {
  '/og': {
    body: `<!doctype html><html><head><title>Fallback title</title>
      <meta property="og:title" content="Housing benefit: how to apply">
      <meta property="og:description" content="The steps, the forms and the deadlines.">
      <meta property="og:image" content="/images/housing.png">
      <meta property="og:site_name" content="Welfare Office">
      <meta property="og:type" content="article">
      </head><body>x</body></html>`,
  },
  '/twitter': {
    body: `<html><head><meta name="twitter:title" content="Tweet title">
      <meta name="twitter:description" content="Tweet text"><meta name="twitter:image" content="https://cdn.example.com/t.jpg">
      </head></html>`,
  },
  '/title': {
    body: `<html><head><title>Only a title</title><meta name="description" content="And a description"></head></html>`,
  },
  '/control': { body: '<html><head><title>Bad\u0000 \u0007title\ud800 here</title></head></html>' },
  '/empty': { body: '<html><head></head><body>nothing to see</body></html>' },
  '/pdf': { type: 'application/pdf', body: '%PDF-1.4 not html' },
  '/slow': () => undefined,
  '/huge': (res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><head><title>Huge page</title></head><body>');
    const chunk = `<p>${'x'.repeat(64 * 1024)}</p>`;
    let sent = 0;
    const pump = () => {
      while (sent < 8 * 1024 * 1024) {
        sent += chunk.length;
        hugeBytesSent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end('</body></html>');
    };
    res.on('error', () => undefined);
    pump();
  },
};

function listen(srv: http.Server, host: string): Promise<number> {
  return new Promise((resolve) =>
    srv.listen(0, host, () => resolve((srv.address() as net.AddressInfo).port)),
  );
}

beforeAll(async () => {
  internal = http.createServer((_req, res) => res.end('<title>internal</title>'));
  internal.on('connection', () => internalConnections++);
  internalPort = await listen(internal, '127.0.0.1');
  site = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const hops = /^\/r(\d)$/.exec(path);
    if (hops) {
      const n = Number(hops[1]);
      res.writeHead(302, { location: n > 1 ? `/r${n - 1}` : '/og' }).end();
      return;
    }
    if (path === '/to-internal') {
      res.writeHead(302, { location: `http://127.0.0.1:${internalPort}/` }).end();
      return;
    }
    if (path === '/to-metadata') {
      res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      return;
    }
    const page = PAGES[path];
    if (!page) return void res.writeHead(404).end();
    if (typeof page === 'function') return page(res);
    res.writeHead(200, { 'content-type': page.type ?? 'text/html; charset=utf-8' }).end(page.body);
  });
  const port = await listen(site, '127.0.0.2');
  siteBase = `http://site.example.com:${port}`;
  server = await startTestServer({
    productChatRules: false,
    env: { HTTP_OUT_ALLOW: '127.0.0.2', HTTP_OUT_RESOLVE: 'site.example.com=127.0.0.2' },
  });
  maria = await chatUser(server, 'maria');
  noah = await chatUser(server, 'noah');
  await maria.call('POST', '/channels/messaging/links/query', { data: { members: ['maria', 'noah'] } });
});

afterAll(async () => {
  await server?.close();
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
  await new Promise((r) => internal?.close(r));
});

const og = (user: ChatUserClient, url: string) => user.call('GET', '/og', undefined, { url });

describe('GET /chat/og', () => {
  it('reads Open Graph tags, with absolute image URLs and the site name', async () => {
    const res = await og(maria, `${siteBase}/og`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      og_scrape_url: `${siteBase}/og`,
      type: 'article',
      title: 'Housing benefit: how to apply',
      text: 'The steps, the forms and the deadlines.',
      title_link: `${siteBase}/og`,
      author_name: 'Welfare Office',
      image_url: `${siteBase}/images/housing.png`,
      thumb_url: `${siteBase}/images/housing.png`,
    });
  });

  it('falls back on Twitter tags, then <title> and the meta description', async () => {
    expect((await og(maria, `${siteBase}/twitter`)).body).toMatchObject({
      title: 'Tweet title',
      text: 'Tweet text',
      image_url: 'https://cdn.example.com/t.jpg',
    });
    const plain = await og(maria, `${siteBase}/title`);
    expect(plain.body).toMatchObject({ title: 'Only a title', text: 'And a description' });
    expect(plain.body.author_name).toBe('site.example.com');
  });

  it('keeps no character PostgreSQL cannot store from page text', async () => {
    // NUL and the lone surrogate arrive as U+FFFD (HTML parsing, UTF-8); the bell is dropped.
    expect((await og(maria, `${siteBase}/control`)).body).toMatchObject({
      title: 'Bad\uFFFD title\uFFFD here',
    });
  });

  it('follows up to 3 redirects and refuses a 4th', async () => {
    expect((await og(maria, `${siteBase}/r3`)).body).toMatchObject({
      og_scrape_url: `${siteBase}/r3`,
      title: 'Housing benefit: how to apply',
    });
    expect((await og(maria, `${siteBase}/r4`)).body).toMatchObject({ code: 4 });
  });

  it('reads at most 1 MiB of a huge page, and still finds its title', async () => {
    const started = Date.now();
    const res = await og(maria, `${siteBase}/huge`);
    expect(res.body).toMatchObject({ title: 'Huge page' });
    expect(Date.now() - started).toBeLessThan(4000);
    // The site writes ahead into socket buffers; far less than the 8 MiB it would send is taken.
    expect(hugeBytesSent).toBeLessThan(6 * 1024 * 1024);
  });

  it('answers code 4 for pages with no preview, non-HTML and slow pages (5 s limit)', async () => {
    for (const path of ['/empty', '/pdf', '/missing']) {
      const res = await og(maria, `${siteBase}${path}`);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ code: 4, message: 'url: the link has no preview' });
    }
    const started = Date.now();
    const slow = await og(maria, `${siteBase}/slow`);
    expect(slow.body).toMatchObject({ code: 4, message: 'url: the link took too long to answer' });
    expect(Date.now() - started).toBeLessThan(7000);
  }, 15_000);

  it('refuses URLs without a hostname of valid domain form (chat-spec §5)', async () => {
    for (const url of [
      'not a url',
      `http://127.0.0.2:${internalPort}/`,
      'http://localhost/',
      'http://[::1]/',
      'http://2130706433/',
      'ftp://example.com/',
      'javascript:alert(1)',
      'http://intranet/',
    ]) {
      const res = await og(maria, url);
      expect(res.status, url).toBe(400);
      expect(res.body, url).toMatchObject({ code: 4 });
    }
  });

  it('refuses redirects to internal addresses without connecting, and names no address', async () => {
    const before = internalConnections;
    for (const path of ['/to-internal', '/to-metadata']) {
      const res = await og(maria, `${siteBase}${path}`);
      expect(res.body, path).toMatchObject({
        code: 4,
        message: 'url: the address of this link is not allowed',
      });
    }
    const unknown = await og(maria, 'http://nowhere.example.com/');
    expect(unknown.body).toMatchObject({ code: 4, message: 'url: the link cannot be reached' });
    // A name that resolves to an internal address answers as a name that does not resolve.
    server.app.chat.linkPreviews.httpOut.mapHost('inside.example.com', '127.0.0.1');
    const inside80 = await og(maria, 'http://inside.example.com/');
    expect(inside80.body).toEqual(unknown.body);
    expect(internalConnections - before).toBe(0);
  });

  it('refuses anonymous connections', async () => {
    const res = await chatCall(server, 'GET', '/og', {
      authType: 'anonymous',
      query: { url: `${siteBase}/og` },
    });
    expect(res.status).toBe(403);
  });
});

describe('enrichment of sent messages', () => {
  let n = 0;
  const send = (text: string, extra: Record<string, unknown> = {}, message: Record<string, unknown> = {}) =>
    maria.call<{ message: { id: string } }>('POST', '/channels/messaging/links/message', {
      message: { id: `en-${++n}`, text, ...message },
      ...extra,
    });
  const settle = () => server.app.chat.urlEnrichment.idle();

  it('adds the first link’s preview by message.updated, to every member’s socket', async () => {
    const socket = await openSocket(server, { token: noah.token });
    const sent = await send(`see ${siteBase}/og and ${siteBase}/title`);
    expect(sent.body.message).toMatchObject({ attachments: [] });
    const updated = await socket.next('message.updated');
    expect(updated.message).toMatchObject({
      id: sent.body.message.id,
      attachments: [{ og_scrape_url: `${siteBase}/og`, title: 'Housing benefit: how to apply' }],
    });
    const stored = await noah.call<{ message: { attachments: unknown[] } }>(
      'GET',
      `/messages/${sent.body.message.id}`,
    );
    expect(stored.body.message.attachments).toHaveLength(1);
    await socket.close();
  });

  it('keeps the message’s attachments and finds links without a scheme', async () => {
    const file = { type: 'file', title: 'form.pdf', asset_url: 'https://files.example.com/form.pdf' };
    const socket = await openSocket(server, { token: noah.token });
    const sent = await send(
      `form and site.example.com:${new URL(siteBase).port}/title`,
      {},
      { attachments: [file] },
    );
    const updated = await socket.next('message.updated');
    expect(updated.message).toMatchObject({
      id: sent.body.message.id,
      attachments: [file, { title: 'Only a title' }],
    });
    await socket.close();
  });

  it('does nothing with skip_enrich_url, without links, with a preview already, or when the link fails', async () => {
    const socket = await openSocket(server, { token: noah.token });
    const preview = { og_scrape_url: `${siteBase}/og`, title: 'Mine' };
    await send(`${siteBase}/og`, { skip_enrich_url: true });
    await send('no links here, just words. and dots.');
    await send(`${siteBase}/og`, {}, { attachments: [preview] });
    const failed = await send(`${siteBase}/pdf`);
    await settle();
    expect(await socket.receives('message.updated', 1000)).toBe(false);
    const stored = await maria.call<{
      message: { attachments: unknown[]; updated_at: string; created_at: string };
    }>('GET', `/messages/${failed.body.message.id}`);
    expect(stored.body.message.attachments).toEqual([]);
    const { rows } = await server.db.query('SELECT count(*)::int AS n FROM chat_url_enrichments');
    expect(rows[0]).toEqual({ n: 0 });
    await socket.close();
  });

  it('does nothing when the channel type’s url_enrichment is off', async () => {
    const serverToken = await signChatToken(server.config, { server: true });
    const put = (on: boolean) =>
      chatCall(server, 'PUT', '/channeltypes/messaging', {
        token: serverToken,
        body: { url_enrichment: on },
      });
    expect((await put(false)).status).toBe(200);
    try {
      const socket = await openSocket(server, { token: noah.token });
      await send(`${siteBase}/og`);
      await settle();
      expect(await socket.receives('message.updated', 1000)).toBe(false);
      await socket.close();
    } finally {
      await put(true);
    }
  });

  it('runs enrichments left in the queue (a node stopped) from the scheduled job', async () => {
    const socket = await openSocket(server, { token: noah.token });
    const sent = await send('a message queued by a node that then stopped', { skip_enrich_url: true });
    await server.db.query('INSERT INTO chat_url_enrichments (message_id, url) VALUES ($1, $2)', [
      sent.body.message.id,
      `${siteBase}/og`,
    ]);
    // The job would refuse: the text no longer holds the link. Give it the link, as the send would have.
    await server.db.query('UPDATE chat_messages SET text = $2 WHERE id = $1', [
      sent.body.message.id,
      `queued ${siteBase}/og`,
    ]);
    const jobs = server.app.chat.jobs;
    jobs.clock = () => new Date(Date.now() + 5 * 60 * 1000);
    expect(await jobs.tick()).toContain('enrich-urls');
    const updated = await socket.next('message.updated');
    expect(updated.message).toMatchObject({
      id: sent.body.message.id,
      attachments: [{ title: expect.any(String) }],
    });
    await socket.close();
  });
});
