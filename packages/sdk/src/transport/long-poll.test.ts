import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer, FakePollSession } from '../testing/index.js';

const TIMERS = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] as const;

describe('long-poll fallback (chat-spec §9: 6 s WebSocket, 8 s to open, 30 s polls; fake timers)', () => {
  let server: FakeChatServer;
  let client: ChatClient | undefined;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: [...TIMERS] });
    server = new FakeChatServer();
    server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy');
  });
  afterEach(async () => {
    await client?.disconnectUser();
    client = undefined;
    vi.useRealTimers();
  });

  const polls = () => server.requestsTo(/^GET \/longpoll$/);

  it('a WebSocket without health.check for 6 s is replaced by long polling, which carries events', async () => {
    server.blockWebSockets = true;
    const connecting = connectFakeClient(server, { id: 'amy' }, { longPollFallback: true });
    let done = false;
    void connecting.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(5_999);
    expect(done).toBe(false);
    expect(polls()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    client = await connecting;
    expect(client.connection.getSnapshot()).toMatchObject({
      status: 'connected',
      online: true,
      transport: 'longpoll',
    });
    expect([...server.sockets].some((s) => s instanceof FakePollSession)).toBe(true);
    expect(polls()[0]?.query.connection_id).toBeUndefined();

    const channel = client.channel('messaging', 'general');
    await channel.watch();
    server.sendMessage('messaging:general', 'bob', { text: 'over long polling' });
    await vi.advanceTimersByTimeAsync(0);
    expect(channel.state.getSnapshot().messages.map((m) => m.text)).toEqual(['over long polling']);
    expect(polls().at(-1)?.query).toMatchObject({ connection_id: 'conn-1', timeout: '30000' });
  });

  it('an empty poll comes back after 30 s and keeps the connection healthy past the 35 s check', async () => {
    server.blockWebSockets = true;
    const connecting = connectFakeClient(server, { id: 'amy' }, { longPollFallback: true });
    await vi.advanceTimersByTimeAsync(6_000);
    client = await connecting;
    const before = polls().length;
    await vi.advanceTimersByTimeAsync(29_999);
    expect(polls()).toHaveLength(before);
    await vi.advanceTimersByTimeAsync(1);
    expect(polls()).toHaveLength(before + 1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.connection.getSnapshot()).toMatchObject({ status: 'connected', transport: 'longpoll' });
  });

  it('a dropped long-poll connection reconnects by long polling and recovers', async () => {
    server.blockWebSockets = true;
    const connecting = connectFakeClient(server, { id: 'amy' }, { longPollFallback: true, random: () => 0 });
    await vi.advanceTimersByTimeAsync(6_000);
    client = await connecting;
    let recovered = false;
    client.on('connection.recovered', () => (recovered = true));
    server.dropConnections();
    await vi.advanceTimersByTimeAsync(0);
    expect(client.connection.getSnapshot().status).toBe('disconnected');
    await vi.advanceTimersByTimeAsync(250);
    expect(client.connection.getSnapshot()).toMatchObject({
      status: 'connected',
      transport: 'longpoll',
      connectionId: 'conn-2',
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(recovered).toBe(true);
  });

  it('a working WebSocket is kept; without the option a silent WebSocket fails after 15 s', async () => {
    client = await connectFakeClient(server, { id: 'amy' }, { longPollFallback: true });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(client.connection.getSnapshot()).toMatchObject({ status: 'connected', transport: 'websocket' });
    expect(polls()).toHaveLength(0);
    await client.disconnectUser();

    server.blockWebSockets = true;
    const failing = connectFakeClient(server, { id: 'amy' });
    const outcome = failing.then(
      () => 'connected',
      (error: unknown) => String(error),
    );
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await outcome).toContain('could not connect to chat');
    expect(polls()).toHaveLength(0);
  });
});
