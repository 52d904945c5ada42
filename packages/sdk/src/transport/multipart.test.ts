// @vitest-environment jsdom
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMultipart, type UploadProgress } from './multipart.js';

// jsdom's XMLHttpRequest is a real HTTP client: the upload below crosses loopback to a real server.
let server: Server;
let base = '';
const received: { headers: IncomingMessage['headers']; bytes: number; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', '*');
    res.setHeader('Access-Control-Allow-Methods', 'POST');
    if (req.method === 'OPTIONS') return void res.end();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({
        headers: req.headers,
        bytes: body.length,
        body: body.subarray(0, 400).toString('latin1'),
      });
      res.writeHead(req.url?.includes('fail') ? 413 : 200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ file: '/chat/files/abcdefghij/big.bin' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function form(size: number): FormData {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(size)], { type: 'application/octet-stream' }), 'big.bin');
  return body;
}

describe('multipart uploads through XMLHttpRequest', () => {
  it('reports upload progress up to the whole size and sends the headers and the file field', async () => {
    const progress: UploadProgress[] = [];
    const answer = await sendMultipart(
      {
        url: `${base}/chat/channels/messaging/x/file`,
        headers: { Authorization: 'token-1', 'Auth-Type': 'jwt' },
        body: form(3 * 1024 * 1024),
        what: 'POST /file',
        onProgress: (p) => progress.push(p),
      },
      { xhr: XMLHttpRequest, fetch: () => Promise.reject(new Error('fetch must not be used')) },
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ file: '/chat/files/abcdefghij/big.bin' });
    const last = received.at(-1);
    expect(last?.headers.authorization).toBe('token-1');
    expect(last?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(last?.body).toContain('name="file"; filename="big.bin"');
    expect(last?.bytes).toBeGreaterThan(3 * 1024 * 1024);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)?.loaded).toBe(progress.at(-1)?.total);
    expect(progress.at(-1)?.total).toBeGreaterThan(3 * 1024 * 1024);
  });

  it('answers an error status as it came; an abort rejects as a network failure', async () => {
    const refused = await sendMultipart(
      { url: `${base}/fail`, headers: {}, body: form(10), what: 'POST /fail' },
      { xhr: XMLHttpRequest, fetch },
    );
    expect(refused.status).toBe(413);
    const controller = new AbortController();
    const upload = sendMultipart(
      {
        url: `${base}/slow`,
        headers: {},
        body: form(1024 * 1024),
        what: 'POST /slow',
        signal: controller.signal,
      },
      { xhr: XMLHttpRequest, fetch },
    );
    controller.abort();
    await expect(upload).rejects.toMatchObject({ network: true, message: 'POST /slow was aborted' });
  });
});
