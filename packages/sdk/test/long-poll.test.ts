import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatClient } from '../src/index.js';
import { connectTo, serverHelper, until, type TestServer } from './support.js';

/** A WebSocket that a proxy or firewall swallows: it never opens, never answers, never closes. */
class BlockedWebSocket {
  readonly readyState = 0;
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  constructor(readonly url: string) {}
  send(): void {}
  close(): void {}
}

describe('SDK against the real server: long-poll fallback with the WebSocket blocked', () => {
  let server: TestServer;
  const clients: ChatClient[] = [];

  beforeAll(async () => {
    server = await (await serverHelper()).startTestServer({ productChatRules: false });
    await server.app.chat.server.upsertUsers([{ id: 'lena' }, { id: 'ravi' }]);
  });
  afterAll(async () => {
    for (const client of clients) await client.disconnectUser();
    await server?.close();
  });

  it('connects by long polling after 6 s and exchanges messages and typing with a WebSocket client', async () => {
    const started = Date.now();
    const lena = await connectTo(server, 'lena', { WebSocket: BlockedWebSocket, longPollFallback: true });
    clients.push(lena);
    expect(Date.now() - started).toBeGreaterThanOrEqual(6_000);
    expect(lena.connection.getSnapshot()).toMatchObject({ status: 'connected', transport: 'longpoll' });
    const ravi = await connectTo(server, 'ravi');
    clients.push(ravi);
    expect(ravi.connection.getSnapshot().transport).toBe('websocket');

    const mine = lena.channel('messaging', 'sdk-longpoll', { members: ['lena', 'ravi'] });
    await mine.watch();
    const theirs = ravi.channel('messaging', 'sdk-longpoll');
    await theirs.watch();

    const fromRavi = await theirs.sendMessage({ text: 'to the long-poll client' });
    await until(() => mine.findMessage(fromRavi.id) !== undefined, 'lena gets the message by long polling');
    const fromLena = await mine.sendMessage({ text: 'back over HTTP' });
    expect(fromLena.status).toBe('received');
    await until(() => theirs.findMessage(fromLena.id) !== undefined, 'ravi gets the answer');

    theirs.keystroke();
    await until(() => mine.state.getSnapshot().typing.ravi !== undefined, 'typing reaches lena');
    expect(mine.state.getSnapshot().messages.map((m) => m.id)).toEqual([fromRavi.id, fromLena.id]);
  }, 30_000);
});
