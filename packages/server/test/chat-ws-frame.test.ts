import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { PreparedFrame, sendPrepared } from '../src/chat/realtime/ws-frame.js';

let server: WebSocketServer | undefined;
afterEach(() => server?.close());

describe('sendPrepared', () => {
  it('arrives as the same text frames as socket.send, in order, for every length encoding', async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(server, 'listening');
    const accepted = once(server, 'connection') as Promise<[WebSocket]>;
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const [socket] = await accepted;
    const texts = ['{"a":1}', 'é'.repeat(100), 'x'.repeat(70_000), 'plain'];
    const received: string[] = [];
    const done = new Promise<void>((resolve) =>
      client.on('message', (data, isBinary) => {
        expect(isBinary).toBe(false);
        received.push(String(data));
        if (received.length === texts.length * 2) resolve();
      }),
    );
    for (const t of texts) {
      const frame = new PreparedFrame(t);
      sendPrepared(socket, frame);
      socket.send(t);
    }
    await done;
    expect(received).toEqual(texts.flatMap((t) => [t, t]));
    client.close();
  });
});

/** A connected pair: the server's socket and a client collecting text frames and the close code. */
async function pair() {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  await once(server, 'listening');
  const accepted = once(server, 'connection') as Promise<[WebSocket]>;
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const [socket] = await accepted;
  if (client.readyState !== client.OPEN) await once(client, 'open');
  const received: string[] = [];
  client.on('message', (data) => received.push(String(data)));
  const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
  return { socket, client, received, closed };
}

describe('sendPrepared corks', () => {
  it('writes the frames of one event-loop turn, ws frames among them, in one system call and in order', async () => {
    const { socket, client, received } = await pair();
    const raw = (socket as unknown as { _socket: { _write: unknown; _writev: unknown } })._socket;
    const calls: string[] = [];
    for (const name of ['_write', '_writev'] as const) {
      const original = raw[name] as (...args: unknown[]) => void;
      raw[name] = function (this: unknown, ...args: unknown[]) {
        calls.push(name);
        original.apply(this, args);
      };
    }
    sendPrepared(socket, new PreparedFrame('one'));
    sendPrepared(socket, new PreparedFrame('two'));
    socket.send('three (ws)');
    sendPrepared(socket, new PreparedFrame('four'));
    expect(calls).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['_writev']);
    for (let i = 0; i < 200 && received.length < 4; i++) await new Promise((r) => setTimeout(r, 5));
    expect(received).toEqual(['one', 'two', 'three (ws)', 'four']);
    client.close();
  });

  it('sends frames corked before a close ahead of the close frame', async () => {
    const { socket, received, closed } = await pair();
    sendPrepared(socket, new PreparedFrame('first'));
    sendPrepared(socket, new PreparedFrame('second'));
    socket.close(1000, 'done');
    expect(await closed).toBe(1000);
    expect(received).toEqual(['first', 'second']);
  });

  it('writes nothing to a socket that closed', async () => {
    const { socket, client, received, closed } = await pair();
    client.close();
    await closed;
    for (let i = 0; i < 200 && socket.readyState !== socket.CLOSED; i++)
      await new Promise((r) => setTimeout(r, 5));
    sendPrepared(socket, new PreparedFrame('late'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([]);
  });
});
