import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatChannel, ChatClient, LocalMessage } from '../src/index.js';
import { connectTo, serverHelper, until, type TestServer, type TestServerHelper } from './support.js';
import { TcpProxy } from './tcp-proxy.js';

const port = (server: TestServer) => Number(new URL(server.url).port);

/**
 * Issue 6 Tests: the network is cut and the server restarted (a new process state on the same
 * database, behind a proxy the clients keep talking to); both clients send during and after the cut
 * and converge on the same ordered messages, with no loss and no duplicate.
 */
describe('SDK against the real server: network cut and server restart', () => {
  let helper: TestServerHelper;
  let db: { url: string; drop(): Promise<void> };
  let server: TestServer | undefined;
  let proxy: TcpProxy;
  const clients: ChatClient[] = [];

  beforeAll(async () => {
    helper = await serverHelper();
    db = await helper.createTestDatabase();
    server = await helper.startTestServer({ databaseUrl: db.url, productChatRules: false });
    await server.app.chat.server.upsertUsers([{ id: 'ines' }, { id: 'tomas' }, { id: 'auditor' }]);
    proxy = await TcpProxy.start(port(server));
  });
  afterAll(async () => {
    for (const client of clients) await client.disconnectUser();
    await proxy?.close();
    await server?.close();
    await db?.drop();
  });

  async function connect(id: string): Promise<ChatClient> {
    if (!server) throw new Error('no server');
    const client = await connectTo(server, id, {
      baseUrl: `http://127.0.0.1:${proxy.port}/chat`,
      random: () => 0,
    });
    clients.push(client);
    return client;
  }
  const ids = (channel: ChatChannel) => channel.state.getSnapshot().messages.map((m) => m.id);
  const holds = (channel: ChatChannel, id: string) => ids(channel).includes(id);

  it('both clients converge with no loss and no duplicate', async () => {
    const ines = await connect('ines');
    const tomas = await connect('tomas');
    const a = ines.channel('messaging', 'sdk-restart', { members: ['ines', 'tomas', 'auditor'] });
    await a.watch();
    ines.setActiveChannel(a);
    const b = tomas.channel('messaging', 'sdk-restart');
    await b.watch();
    tomas.setActiveChannel(b);

    const m1 = await a.sendMessage({ text: 'm1 before' });
    const m2 = await b.sendMessage({ text: 'm2 before' });
    await until(() => holds(a, m2.id) && holds(b, m1.id), 'both see the first messages');

    // The request reaches the server, its answer is lost: the client times out and marks it failed.
    proxy.setMode('drop-responses');
    const m3 = await a.sendMessage({ text: 'm3 landed, answer lost' });
    expect(m3.status).toBe('failed');

    // Network cut and server restart.
    const recovered = Promise.all(
      [ines, tomas].map((c) => new Promise<void>((resolve) => c.on('connection.recovered', () => resolve()))),
    );
    proxy.setMode('down');
    await server?.close();
    server = undefined;
    await until(
      () => [ines, tomas].every((c) => c.connection.getSnapshot().status !== 'connected'),
      'both offline',
    );
    const m4 = await b.sendMessage({ text: 'm4 while down' });
    expect(m4.status).toBe('failed');
    server = await helper.startTestServer({ databaseUrl: db.url, productChatRules: false });
    proxy.restore(port(server));
    await recovered;
    // m3 did land: the other client catches it up after the restart (`/sync`, channel reload).
    await until(() => holds(b, m3.id), 'tomas catches up m3');

    // The user retries the failed messages (chat-spec §4): m3 already exists and counts as received.
    const r3 = await a.resendMessage(a.findMessage(m3.id)!);
    const r4 = await b.resendMessage(b.findMessage(m4.id)!);
    expect([r3.status, r4.status]).toEqual(['received', 'received']);
    const m5 = await a.sendMessage({ text: 'm5 after' });
    const m6 = await b.sendMessage({ text: 'm6 after' });
    const all = [m1, m2, m3, m4, m5, m6].map((m: LocalMessage) => m.id);
    await until(() => all.every((id) => holds(a, id) && holds(b, id)), 'both hold every message');

    expect(ids(a)).toEqual(ids(b));
    expect(new Set(ids(a)).size).toBe(ids(a).length);
    expect(
      [...a.state.getSnapshot().messages, ...b.state.getSnapshot().messages].every(
        (m) => m.status === 'received',
      ),
    ).toBe(true);
    // And what the server holds is the same list.
    const auditor = await connect('auditor');
    const fresh = auditor.channel('messaging', 'sdk-restart');
    await fresh.watch();
    expect(ids(fresh)).toEqual(ids(a));
    expect(fresh.state.getSnapshot().messages.map((m) => m.text)).toEqual(
      a.state.getSnapshot().messages.map((m) => m.text),
    );
    expect(ids(a).filter((id) => all.includes(id))).toHaveLength(6);
  }, 60_000);
});
