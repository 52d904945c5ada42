import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMultipart, type UploadProgress } from './multipart.js';

// Node has no XMLHttpRequest: the upload goes through Node's fetch as a counted stream, to a real loopback server.
let server: Server;
let base = '';
let last: { headers: IncomingMessage['headers']; body: Buffer } | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      last = { headers: req.headers, body: Buffer.concat(chunks) };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"file":"/chat/files/abcdefghij/scan.pdf"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('multipart uploads through fetch (Node)', () => {
  it('streams the multipart body, counting the bytes as they are read', async () => {
    const size = 2 * 1024 * 1024;
    const body = new FormData();
    body.append('file', new File([new Uint8Array(size).fill(7)], 'scan.pdf', { type: 'application/pdf' }));
    const progress: UploadProgress[] = [];
    const answer = await sendMultipart(
      {
        url: `${base}/upload`,
        headers: { Authorization: 't' },
        body,
        what: 'POST /upload',
        onProgress: (p) => progress.push(p),
      },
      { fetch: globalThis.fetch },
    );
    expect(answer).toEqual({ status: 200, text: '{"file":"/chat/files/abcdefghij/scan.pdf"}' });
    expect(last?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(last?.headers.authorization).toBe('t');
    // The server can read it back as the form that was sent.
    const parsed = await new Response(new Uint8Array(last?.body ?? []), {
      headers: { 'content-type': String(last?.headers['content-type']) },
    }).formData();
    const file = parsed.get('file') as File;
    expect([file.name, file.type, file.size]).toEqual(['scan.pdf', 'application/pdf', size]);
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toEqual({ loaded: size, total: size });
    expect(progress.map((p) => p.loaded)).toEqual([...progress.map((p) => p.loaded)].sort((a, b) => a - b));
  });
});
