import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';
import type { ChatClient } from './chat-client.js';

describe('connection recovery (fake timers)', () => {
  let server: FakeChatServer;
  let client: ChatClient;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    server = new FakeChatServer();
    server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy');
    server.createChannel('messaging', 'other', { members: ['amy', 'bob'] }, 'amy');
    client = await connectFakeClient(server, { id: 'amy' }, { random: () => 0 });
  });

  afterEach(async () => {
    await client.disconnectUser();
    vi.useRealTimers();
  });

  it('after a drop: applies /sync since the last event, re-queries lists with limit 30, reloads the active channel', async () => {
    let lastEventAt: string | undefined;
    client.on('*', (event) => {
      lastEventAt = event.created_at;
    });
    const list = client.channelList({ filter: { members: { $in: ['amy'] } }, limit: 10 });
    await list.load();
    const active = client.channel('messaging', 'general');
    await active.watch();
    client.setActiveChannel(active);
    server.sendMessage('messaging:general', 'bob', { text: 'before' });
    await vi.advanceTimersByTimeAsync(0);
    // Selecting marked the channel read: that message.read is the last event before the drop.
    const lastSeen = lastEventAt;

    const recovered = vi.fn();
    client.on('connection.recovered', recovered);
    server.dropConnections();
    await vi.advanceTimersByTimeAsync(0);
    // Missed while offline: the socket is down, only /sync can bring it.
    const missed = server.sendMessage('messaging:general', 'bob', { text: 'missed' });
    await vi.advanceTimersByTimeAsync(500);

    expect(client.connection.getSnapshot().status).toBe('connected');
    const sync = server.requestsTo(/POST \/sync$/);
    expect(sync).toHaveLength(1);
    expect(sync[0]?.body).toMatchObject({ last_sync_at: lastSeen });
    expect((sync[0]?.body as { channel_cids: string[] }).channel_cids.sort()).toEqual([
      'messaging:general',
      'messaging:other',
    ]);
    const listQueries = server.requestsTo(/POST \/channels$/);
    expect(listQueries.at(-1)?.body).toMatchObject({ limit: 30, offset: 0 });
    expect(server.requestsTo(/general\/query$/)).toHaveLength(2);
    expect(active.state.getSnapshot().messages.filter((m) => m.id === missed.id)).toHaveLength(1);
    expect(recovered).toHaveBeenCalledTimes(1);
  });

  it('runs one recovery at a time: concurrent requests share the run and queue at most one more', async () => {
    await client.channel('messaging', 'general').watch();
    server.sendMessage('messaging:general', 'bob', { text: 'x' });
    await vi.advanceTimersByTimeAsync(0);
    const first = client.recover();
    const second = client.recover();
    const third = client.recover();
    expect(second).toBe(first);
    expect(third).toBe(first);
    await first;
    expect(server.requestsTo(/POST \/sync$/)).toHaveLength(2);
  });

  it('logs a failed /sync and carries on with the re-query', async () => {
    const logger = vi.fn();
    await client.disconnectUser();
    client = await connectFakeClient(server, { id: 'amy' }, { logger });
    await client.channel('messaging', 'general').watch();
    client.setActiveChannel(client.channel('messaging', 'general'));
    server.sendMessage('messaging:general', 'bob', { text: 'x' });
    await vi.advanceTimersByTimeAsync(0);
    server.failNext(/POST \/sync$/, { status: 500, code: -1, message: 'sync broke' });
    await client.recover();
    expect(logger).toHaveBeenCalledWith('warn', expect.stringContaining('sync broke'));
    expect(server.requestsTo(/general\/query$/)).toHaveLength(2);
  });
});
