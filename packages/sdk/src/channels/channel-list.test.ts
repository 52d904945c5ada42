import { afterEach, describe, expect, it } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';

async function until(check: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await Promise.resolve();
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('ChannelList', () => {
  const clients: ChatClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.disconnectUser();
  });

  async function setup(channelCount = 3) {
    const server = new FakeChatServer();
    for (let i = 1; i <= channelCount; i++) {
      server.createChannel(
        'messaging',
        `c${i}`,
        { members: ['amy', 'bob'], team: i % 2 ? 'odd' : 'even' },
        'amy',
      );
      server.sendMessage(`messaging:c${i}`, 'bob', { text: `hello ${i}` });
    }
    const amy = await connectFakeClient(server, { id: 'amy' });
    clients.push(amy);
    return { server, amy };
  }

  const cids = (list: ReturnType<ChatClient['channelList']>) =>
    list.state.getSnapshot().channels.map((c) => c.cid);

  it('loads pages ordered by last message, with hasNext and item previews', async () => {
    const { amy } = await setup(3);
    const list = amy.channelList({ filter: { members: { $in: ['amy'] } }, limit: 2 });
    expect(list.state.getSnapshot().status).toBe('idle');
    const loading = list.load();
    expect(list.state.getSnapshot().status).toBe('loading');
    await loading;
    const state = list.state.getSnapshot();
    expect(state).toMatchObject({ status: 'ready', hasNext: true });
    expect(cids(list)).toEqual(['messaging:c3', 'messaging:c2']);
    expect(state.channels[0]).toMatchObject({
      unreadCount: 1,
      lastMessage: { text: 'hello 3', status: 'received' },
    });
    expect(state.channels[0]?.members.map((m) => m.user_id)).toEqual(['amy', 'bob']);
    expect(state.channels[0]?.instance).toBe(amy.channel('messaging', 'c3'));
    await list.loadMore();
    expect(cids(list)).toEqual(['messaging:c3', 'messaging:c2', 'messaging:c1']);
    expect(list.state.getSnapshot().hasNext).toBe(false);
  });

  it('moves a channel to the top on a new message and updates its preview', async () => {
    const { server, amy } = await setup(3);
    const list = amy.channelList({ filter: { members: { $in: ['amy'] } } });
    await list.load();
    server.sendMessage('messaging:c1', 'bob', { text: 'bump' });
    await until(() => list.state.getSnapshot().channels[0]?.cid === 'messaging:c1', 'c1 on top');
    expect(cids(list)).toEqual(['messaging:c1', 'messaging:c3', 'messaging:c2']);
    expect(list.state.getSnapshot().channels[0]?.lastMessage?.text).toBe('bump');
  });

  it('adds a new channel only when it matches the filter', async () => {
    const { server, amy } = await setup(2);
    const list = amy.channelList({ filter: { members: { $in: ['amy'] }, team: 'odd' } });
    await list.load();
    expect(cids(list)).toEqual(['messaging:c1']);
    server.createChannel('messaging', 'new-even', { members: ['amy', 'bob'], team: 'even' }, 'bob');
    server.createChannel('messaging', 'new-odd', { members: ['amy', 'bob'], team: 'odd' }, 'bob');
    server.sendMessage('messaging:new-even', 'bob', { text: 'x' });
    server.sendMessage('messaging:new-odd', 'bob', { text: 'y' });
    await until(() => list.state.getSnapshot().channels.length === 2, 'new-odd added');
    await new Promise((r) => setTimeout(r, 10));
    expect(cids(list)).toEqual(['messaging:new-odd', 'messaging:c1']);
  });

  it('removes hidden channels and reports load errors', async () => {
    const { server, amy } = await setup(2);
    const list = amy.channelList({ filter: { members: { $in: ['amy'] } } });
    await list.load();
    server.emit('messaging:c1', {
      type: 'channel.hidden',
      cid: 'messaging:c1',
      created_at: new Date().toISOString(),
    });
    await until(() => list.state.getSnapshot().channels.length === 1, 'c1 removed');
    expect(cids(list)).toEqual(['messaging:c2']);

    server.failNext(/POST \/channels$/, { status: 500, code: -1, message: 'db down' });
    const failing = amy.channelList({ filter: { members: { $in: ['amy'] } } });
    await expect(failing.load()).rejects.toThrow('db down');
    expect(failing.state.getSnapshot()).toMatchObject({ status: 'error', error: 'db down' });
    expect(amy.notifications.getSnapshot()).toMatchObject([
      { text: 'Error loading channels', permanent: true },
    ]);
    await failing.load();
    expect(amy.notifications.getSnapshot()).toEqual([]);
  });
});
