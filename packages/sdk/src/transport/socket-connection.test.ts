import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { NOTICE_TEXTS } from '../notifications/notifications.js';
import { connectFakeClient, FakeChatServer, type FakeWebSocket } from '../testing/index.js';

/** Timers are faked; microtasks (the fake server's transport) stay real. */
const TIMERS = { toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] } as const;

async function flush(): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
}

describe('connection rules (fake timers)', () => {
  let server: FakeChatServer;
  let client: ChatClient | undefined;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: [...TIMERS.toFake] });
    server = new FakeChatServer();
    server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy');
  });

  afterEach(async () => {
    await client?.disconnectUser();
    client = undefined;
    vi.useRealTimers();
  });

  const socketOf = () => [...server.sockets][0] as FakeWebSocket;

  it('pings with a health.check every 25 s', async () => {
    client = await connectFakeClient(server, { id: 'amy' });
    const socket = socketOf();
    await vi.advanceTimersByTimeAsync(24_999);
    expect(socket.sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(socket.sent).toEqual([{ type: 'health.check', client_id: socket.connectionId }]);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(socket.sent).toHaveLength(2);
    expect(client.connection.getSnapshot().status).toBe('connected');
  });

  it('drops a socket silent for 35 s and reconnects', async () => {
    client = await connectFakeClient(server, { id: 'amy' }, { random: () => 0 });
    const first = socketOf();
    server.answerPings = false;
    await vi.advanceTimersByTimeAsync(34_999);
    expect(client.connection.getSnapshot().status).toBe('connected');
    await vi.advanceTimersByTimeAsync(1);
    expect(client.connection.getSnapshot()).toMatchObject({ status: 'disconnected', online: false });
    await vi.advanceTimersByTimeAsync(250);
    expect(client.connection.getSnapshot().status).toBe('connected');
    expect(socketOf()).not.toBe(first);
  });

  it('reconnects with random backoff growing to 25 s and shows the reconnecting notice meanwhile', async () => {
    client = await connectFakeClient(server, { id: 'amy' }, { random: () => 1 });
    server.refuseConnections = true;
    server.dropConnections();
    await flush();
    expect(client.connection.getSnapshot().status).toBe('disconnected');
    expect(client.notifications.getSnapshot()).toMatchObject([
      { text: NOTICE_TEXTS.reconnecting, permanent: true },
    ]);

    const attemptsAt: number[] = [];
    const started = Date.now();
    // Record when each socket attempt reaches the server.
    const accept = server.accept.bind(server);
    server.accept = (socket) => {
      attemptsAt.push(Date.now() - started);
      accept(socket);
    };
    await vi.advanceTimersByTimeAsync(120_000);
    const gaps = attemptsAt.map((t, i) => t - (attemptsAt[i - 1] ?? 0));
    expect(gaps.slice(0, 7)).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 25_000]);
    expect(Math.max(...gaps)).toBe(25_000);

    server.refuseConnections = false;
    await vi.advanceTimersByTimeAsync(25_000);
    expect(client.connection.getSnapshot().status).toBe('connected');
    expect(client.notifications.getSnapshot()).toEqual([]);
  });

  it('refreshes the token when a reconnect is refused with code 40', async () => {
    const provider = vi.fn(async () => server.tokenFor('amy'));
    server.upsertUser({ id: 'amy' });
    const { ChatClient } = await import('../client/chat-client.js');
    client = new ChatClient({ ...server.clientOptions, random: () => 0 });
    await client.connectUser({ id: 'amy' }, provider);
    expect(provider).toHaveBeenCalledTimes(1);
    server.revokeTokens();
    server.dropConnections();
    await vi.advanceTimersByTimeAsync(1000);
    expect(provider).toHaveBeenCalledTimes(2);
    expect(client.connection.getSnapshot().status).toBe('connected');
  });

  it('gives up the first connect after 15 s with the permanent connect-error notice', async () => {
    server.refuseConnections = true;
    server.upsertUser({ id: 'amy' });
    const { ChatClient } = await import('../client/chat-client.js');
    const c = new ChatClient(server.clientOptions);
    const result = c.connectUser({ id: 'amy' }, async () => server.tokenFor('amy')).catch((e: Error) => e);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(c.connection.getSnapshot().status).toBe('connecting');
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toBeInstanceOf(Error);
    expect(c.connection.getSnapshot().status).toBe('error');
    expect(c.notifications.getSnapshot()[0]).toMatchObject({
      text: NOTICE_TEXTS.connectError,
      permanent: true,
    });
  });

  it('fails the first connect at once on a bad signature', async () => {
    server.upsertUser({ id: 'amy' });
    const { ChatClient } = await import('../client/chat-client.js');
    const c = new ChatClient(server.clientOptions);
    await expect(c.connectUser({ id: 'amy' }, async () => 'not-a-token')).rejects.toThrow(/signature/);
  });
});
