import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { LiteSocket } from './ws-lite.js';

/** The generator's WebSocket client against `ws`'s server: frames of every length encoding, pings, close. */
describe('LiteSocket', () => {
  let server: WebSocketServer;
  let url: string;
  const peers: WebSocket[] = [];

  beforeAll(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    server.on('connection', (ws) => peers.push(ws));
    await new Promise((resolve) => server.once('listening', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/chat/connect?x=1`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const connect = async () => {
    const got: string[] = [];
    const socket = await LiteSocket.connect({ url, onMessage: (p) => got.push(p.toString()) });
    const until = async (n: number) => {
      for (let i = 0; i < 200 && got.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    };
    for (let i = 0; i < 200 && peers.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    return { socket, got, until, peer: peers.shift() as WebSocket };
  };

  it('receives short, 16-bit and 64-bit length frames whole, also when sent back to back', async () => {
    const { socket, got, until, peer } = await connect();
    const texts = ['hello', 'x'.repeat(300), 'y'.repeat(70_000), '{"type":"message.new"}'];
    for (const t of texts) peer.send(t);
    await until(texts.length);
    expect(got).toEqual(texts);
    await socket.close();
    expect(socket.isClosed).toBe(true);
  });

  it('keeps frames whole across reads while other sockets read into the same buffer', async () => {
    const a = await connect();
    const b = await connect();
    const big = 'z'.repeat(600_000);
    const texts = ['before', big, 'after'];
    for (const t of texts) {
      a.peer.send(t);
      b.peer.send(`b:${t.length}`);
    }
    await a.until(texts.length);
    await b.until(texts.length);
    expect(a.got).toEqual(texts);
    expect(b.got).toEqual(texts.map((t) => `b:${t.length}`));
    await Promise.all([a.socket.close(), b.socket.close()]);
  });

  it('answers pings with pongs carrying the same data', async () => {
    const { socket, peer } = await connect();
    const pong = new Promise<string>((resolve) => peer.once('pong', (d) => resolve(d.toString())));
    peer.ping('are you there');
    expect(await pong).toBe('are you there');
    socket.terminate();
  });

  it('sees the server close the connection', async () => {
    const { socket, peer } = await connect();
    const closed = new Promise<number>((resolve) => peer.once('close', (code) => resolve(code)));
    peer.close(1000, 'bye');
    expect(await closed).toBe(1000);
    for (let i = 0; i < 200 && !socket.isClosed; i++) await new Promise((r) => setTimeout(r, 10));
    expect(socket.isClosed).toBe(true);
  });

  it('rejects a refused upgrade with the status line', async () => {
    const plain = http.createServer((_req, res) => res.writeHead(401).end('no'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const port = (plain.address() as AddressInfo).port;
    await expect(
      LiteSocket.connect({ url: `ws://127.0.0.1:${port}/chat/connect`, onMessage: () => {} }),
    ).rejects.toThrow(/upgrade refused: HTTP\/1.1 401/);
    plain.close();
  });
});
