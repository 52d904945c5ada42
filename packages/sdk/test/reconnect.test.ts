import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ChatClient } from '../src/index.js';
import { serverHelper, until, type TestServer } from './support.js';

describe('SDK against the real server: network cut and read state', () => {
  let server: TestServer;
  const clients: ChatClient[] = [];

  beforeAll(async () => {
    server = await (await serverHelper()).startTestServer({ productChatRules: false });
    await server.app.chat.server.upsertUsers([{ id: 'noah' }, { id: 'gary' }]);
  });

  afterAll(async () => {
    for (const client of clients) await client.disconnectUser();
    await server?.close();
  });

  /** A client whose sockets the test can cut. */
  async function connect(id: string) {
    const sockets: WebSocket[] = [];
    class TrackedWebSocket extends WebSocket {
      constructor(url: string) {
        super(url);
        sockets.push(this);
      }
    }
    const client = new ChatClient({
      apiKey: server.config.chatApiKey,
      baseUrl: `${server.url}/chat`,
      WebSocket: TrackedWebSocket,
      random: () => 0,
    });
    clients.push(client);
    await client.connectUser({ id }, () => server.app.chat.server.createToken(id));
    return { client, cut: () => sockets.at(-1)?.terminate() };
  }

  it('after the socket is cut, the client reconnects and catches up with no loss and no duplicate', async () => {
    const noah = await connect('noah');
    const gary = await connect('gary');
    const noahChannel = noah.client.channel('messaging', 'sdk-reconnect', { members: ['noah', 'gary'] });
    await noahChannel.watch();
    noah.client.setActiveChannel(noahChannel);
    const garyChannel = gary.client.channel('messaging', 'sdk-reconnect');
    await garyChannel.watch();
    const before = await garyChannel.sendMessage({ text: 'before the cut' });
    await until(
      () => noahChannel.state.getSnapshot().messages.some((m) => m.id === before.id),
      'noah sees before',
    );

    const recovered = new Promise<void>((resolve) => noah.client.on('connection.recovered', () => resolve()));
    noah.cut();
    await until(() => noah.client.connection.getSnapshot().status === 'disconnected', 'noah offline');
    const during = await garyChannel.sendMessage({ text: 'while noah is away' });
    await recovered;
    expect(noah.client.connection.getSnapshot().status).toBe('connected');

    const after = await garyChannel.sendMessage({ text: 'after the cut' });
    await until(
      () => noahChannel.state.getSnapshot().messages.some((m) => m.id === after.id),
      'noah sees after',
    );
    expect(noahChannel.state.getSnapshot().messages.map((m) => m.id)).toEqual([
      before.id,
      during.id,
      after.id,
    ]);
  });

  it('marking read reaches the other client as read state', async () => {
    const [noah, gary] = clients as [ChatClient, ChatClient];
    const garyChannel = gary.channel('messaging', 'sdk-reconnect');
    const noahChannel = noah.channel('messaging', 'sdk-reconnect');
    expect(noahChannel.state.getSnapshot().unreadCount).toBeGreaterThan(0);
    noahChannel.markRead();
    expect(noahChannel.state.getSnapshot().unreadCount).toBe(0);
    await until(
      () => garyChannel.state.getSnapshot().read.noah?.unread_messages === 0,
      'gary sees noah read',
    );
    const lastId = garyChannel.state.getSnapshot().messages.at(-1)?.id;
    expect(garyChannel.state.getSnapshot().read.noah?.last_read_message_id ?? lastId).toBe(lastId);
  });
});
