import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ChatClient } from '../src/index.js';
import { serverForSuite, until, type TestServer } from './support.js';

/**
 * The SDK against the real server (issue 13 §4): a frame the server never sends is filled through `/sync`
 * without a reconnect, and every client shows the server's order (`seq`) under concurrent senders.
 */
describe('event stream against the real server', () => {
  const users = [
    { id: 'maria', name: 'Maria' },
    { id: 'chloe', name: 'Chloe' },
    { id: 'noah', name: 'Noah' },
  ];
  const { server, connect } = serverForSuite(users);

  /** Server hooks the SDK's view of the helper does not type. */
  const realtime = () =>
    (server() as TestServer & { app: { chat: { realtime: { dropPublishes: boolean } } } }).app.chat.realtime;

  it('fills a dropped frame through /sync while the socket stays up, each message once', async () => {
    const maria = await connect('maria');
    const requests: string[] = [];
    const s = server();
    const chloe = new ChatClient({
      apiKey: s.config.chatApiKey,
      baseUrl: `${s.url}/chat`,
      WebSocket,
      fetch: (input, init) => {
        requests.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
        return fetch(input, init);
      },
    });
    await chloe.connectUser({ id: 'chloe' }, () => s.app.chat.server.createToken('chloe'));
    try {
      const mariaChannel = maria.channel('messaging', 'sdk-gap', { members: ['maria', 'chloe'] });
      await mariaChannel.watch();
      const chloeChannel = chloe.channel('messaging', 'sdk-gap');
      await chloeChannel.watch();
      const connectionId = chloe.connection.getSnapshot().connectionId;
      const ids = () => chloeChannel.state.getSnapshot().messages.map((m) => m.text);

      await mariaChannel.sendMessage({ text: 'one' });
      await until(() => ids().includes('one'), 'one');
      // Committed, recorded, never published: chloe's socket does not get it.
      realtime().dropPublishes = true;
      try {
        await mariaChannel.sendMessage({ text: 'two' });
      } finally {
        realtime().dropPublishes = false;
      }
      await mariaChannel.sendMessage({ text: 'three' });
      await until(() => ids().includes('three'), 'three');
      await chloe.stream.settled();

      expect(ids()).toEqual(['one', 'two', 'three']);
      expect(requests.filter((r) => r.endsWith('/chat/sync'))).toHaveLength(1);
      expect(chloe.connection.getSnapshot()).toMatchObject({ status: 'connected', connectionId });
    } finally {
      await chloe.disconnectUser();
    }
  });

  it('shows every reader the server order under concurrent senders', async () => {
    const clients = await Promise.all(users.map((u) => connect(u.id)));
    const channels = clients.map((c) =>
      c.channel('messaging', 'sdk-order', { members: users.map((u) => u.id) }),
    );
    for (const channel of channels) await channel.watch();
    const perSender = 10;
    await Promise.all(
      channels.map(async (channel, k) => {
        for (let i = 0; i < perSender; i++) {
          await Promise.all([
            channel.sendMessage({ text: `${users[k]?.id} ${i}a` }),
            channel.sendMessage({ text: `${users[k]?.id} ${i}b` }),
          ]);
        }
      }),
    );
    const total = users.length * perSender * 2;
    for (const channel of channels) {
      await until(() => channel.state.getSnapshot().messages.length >= total, 'every message');
    }
    const s = server();
    const token = await s.app.chat.server.createToken('maria');
    const res = await fetch(
      `${s.url}/chat/channels/messaging/sdk-order/query?api_key=${s.config.chatApiKey}&user_id=maria`,
      {
        method: 'POST',
        headers: { authorization: token, 'auth-type': 'jwt', 'content-type': 'application/json' },
        body: JSON.stringify({ messages: { limit: 100 } }),
      },
    );
    const page = (await res.json()) as { messages: Array<{ id: string }> };
    const serverOrder = page.messages.map((m) => m.id);
    expect(serverOrder).toHaveLength(total);
    for (const channel of channels) {
      expect(channel.state.getSnapshot().messages.map((m) => m.id)).toEqual(serverOrder);
    }
  });
});
