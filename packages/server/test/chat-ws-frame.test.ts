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
