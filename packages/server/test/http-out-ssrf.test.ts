import dns from 'node:dns';
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpOut, HttpOutError, type Resolver } from '../src/platform/http-out/index.js';

/**
 * The SSRF list (docs/security.md "Outbound requests"): every form of an internal address, given directly, through
 * a DNS name, or as a redirect from an allowed site, must be refused with 0 connections to an internal listener.
 * The listener listens on every local address (`::`, dual stack), so a connection to 127.0.0.1, ::1, 0.0.0.0 or
 * the machine's own addresses on its port is counted.
 */

let internal: http.Server;
let internalPort = 0;
let internalConnections = 0;
/** An allowed "public" site (allow-listed 127.0.0.2) that redirects wherever it is told. */
let site: http.Server;
let siteUrl = '';

function listen(server: http.Server, host: string): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port)),
  );
}

beforeAll(async () => {
  internal = http.createServer((_req, res) => res.end('<html><title>internal secret</title></html>'));
  internal.on('connection', () => internalConnections++);
  internalPort = await listen(internal, '::');
  site = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) {
      res.writeHead(302, { location: to }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><title>public page</title></html>');
  });
  siteUrl = `http://127.0.0.2:${await listen(site, '127.0.0.2')}`;
});

afterAll(async () => {
  await new Promise((r) => internal.close(r));
  await new Promise((r) => site.close(r));
});

/** Test names: `evil.test` is loopback, `evil6.test` is ::1, `mixed.test` has a public and a loopback address. */
const resolve: Resolver = async (hostname) => {
  const fixed: Record<string, Array<{ address: string; family: number }>> = {
    'evil.test': [{ address: '127.0.0.1', family: 4 }],
    'evil6.test': [{ address: '::1', family: 6 }],
    'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
    'metadata.test': [{ address: '169.254.169.254', family: 4 }],
    'mixed.test': [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
  };
  return fixed[hostname] ?? dns.promises.lookup(hostname, { all: true });
};

/** Hosts that must never be fetched (with the internal listener's port where it can be on this machine). */
const INTERNAL_HOSTS = [
  '127.0.0.1',
  '127.1',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  '0.0.0.0',
  '0',
  '[::1]',
  '[::]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::127.0.0.1]',
  '[64:ff9b::7f00:1]',
  '[2002:7f00:1::]',
  '10.0.0.1',
  '172.16.0.1',
  '192.168.1.1',
  '169.254.169.254',
  '[fe80::1]',
  '[fd00::1]',
  '[fd00:ec2::254]',
  '100.64.0.1',
  '224.0.0.1',
  '198.18.0.1',
  '192.0.2.1',
  '255.255.255.255',
  'localhost',
  'LocalHost',
  'evil.test',
  'evil6.test',
  'mapped.test',
  'metadata.test',
  'mixed.test',
];

async function refusal(out: HttpOut, url: string): Promise<HttpOutError> {
  const err = await out.get(url).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, url).toBeInstanceOf(HttpOutError);
  return err as HttpOutError;
}

describe('http-out refuses internal destinations (SSRF list)', () => {
  // Any port, so the address checks (not the port rule) are what refuses.
  const out = new HttpOut({ anyPort: true, resolve, allow: ['127.0.0.2'] });
  afterAll(() => out.close());

  it.each(INTERNAL_HOSTS)('refuses http://%s directly, 0 connections', async (host) => {
    const before = internalConnections;
    const err = await refusal(out, `http://${host}:${internalPort}/`);
    expect(err.reason).toBe('refused');
    expect(err.message).not.toMatch(/127|::|169\.254|10\.0/);
    expect(internalConnections - before).toBe(0);
  });

  it.each(INTERNAL_HOSTS)(
    'refuses a redirect from an allowed site to http://%s, 0 connections',
    async (host) => {
      const before = internalConnections;
      const target = encodeURIComponent(`http://${host}:${internalPort}/`);
      const err = await refusal(out, `${siteUrl}/redirect?to=${target}`);
      expect(err.reason).toBe('refused');
      expect(internalConnections - before).toBe(0);
    },
  );

  it('refuses a chain of redirects longer than 3', async () => {
    let url = `${siteUrl}/`;
    for (let i = 0; i < 4; i++) url = `${siteUrl}/redirect?to=${encodeURIComponent(url)}`;
    expect((await refusal(out, url)).reason).toBe('too-many-redirects');
  });

  it('refuses other schemes and credentials', async () => {
    for (const url of [
      'file:///etc/passwd',
      'gopher://127.0.0.2/',
      'ftp://example.com/',
      'data:text/html,x',
    ]) {
      expect((await refusal(out, url)).reason, url).toBe('invalid-url');
    }
    expect((await refusal(out, `http://user:pw@example.com/`)).reason).toBe('invalid-url');
  });
});

describe('http-out ports', () => {
  const out = new HttpOut({ resolve, allow: ['127.0.0.2'] });
  afterAll(() => out.close());

  it.each(['example.com:22', 'example.com:6379', 'example.com:8080', 'evil.test:5432', '93.184.216.34:25'])(
    'refuses port other than 80/443: %s',
    async (hostPort) => {
      const before = internalConnections;
      expect((await refusal(out, `http://${hostPort}/`)).reason).toBe('refused');
      expect(internalConnections - before).toBe(0);
    },
  );

  it('refuses the internal listener on its port without the any-port test option', async () => {
    const before = internalConnections;
    expect((await refusal(out, `http://evil.test:${internalPort}/`)).reason).toBe('refused');
    expect(internalConnections - before).toBe(0);
  });
});

describe('http-out allow-list (positive cases)', () => {
  it('fetches an allow-listed address on any port', async () => {
    const out = new HttpOut({ allow: ['127.0.0.2'] });
    const res = await out.get(`${siteUrl}/page`);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain('public page');
    await out.close();
  });

  it('reaches the internal listener only when it is allow-listed (the counter counts)', async () => {
    const out = new HttpOut({ allow: ['127.0.0.1/32'], resolve });
    const before = internalConnections;
    const res = await out.get(`http://127.0.0.1:${internalPort}/`);
    expect(res.body.toString()).toContain('internal secret');
    expect(internalConnections - before).toBe(1);
    await out.close();
  });

  it('allows a host by name and follows an allowed redirect', async () => {
    const out = new HttpOut({ allow: ['evil.test', '127.0.0.2'], resolve });
    const target = encodeURIComponent(`http://evil.test:${internalPort}/x`);
    const res = await out.get(`${siteUrl}/redirect?to=${target}`);
    expect(res.url).toBe(`http://evil.test:${internalPort}/x`);
    expect(res.body.toString()).toContain('internal secret');
    await out.close();
  });

  it('maps a name to an address with HTTP_OUT_RESOLVE-style hosts', async () => {
    const out = new HttpOut({ allow: ['127.0.0.2'], hosts: { 'news.example.com': '127.0.0.2' } });
    const res = await out.get(`${siteUrl.replace('127.0.0.2', 'news.example.com')}/`);
    expect(res.body.toString()).toContain('public page');
    await out.close();
  });
});
