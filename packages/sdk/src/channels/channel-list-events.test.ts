import { CAPABILITIES, type ChatEvent } from '@caseroom/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};
const at = () => new Date().toISOString();

describe('ChannelList: invites, active channel, user and capability events', () => {
  const clients: ChatClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.disconnectUser();
  });

  async function setup(channelCount = 3) {
    const server = new FakeChatServer();
    server.upsertUser({ id: 'bob', name: 'Bob' });
    for (let i = 1; i <= channelCount; i++) {
      server.createChannel('messaging', `c${i}`, { members: ['amy', 'bob'] }, 'amy');
      server.sendMessage(`messaging:c${i}`, 'bob', { text: `hello ${i}` });
    }
    const amy = await connectFakeClient(server, { id: 'amy' });
    clients.push(amy);
    const list = amy.channelList({ filter: { members: { $in: ['amy'] } } });
    await list.load();
    return { server, amy, list };
  }
  const cids = (list: ReturnType<ChatClient['channelList']>) =>
    list.state.getSnapshot().channels.map((c) => c.cid);

  it('tracks pending invites: invited adds, accepted moves into the list, rejected drops', async () => {
    const { server, list } = await setup(1);
    server.createChannel('messaging', 'case-a', { members: ['bob'] }, 'bob');
    server.createChannel('messaging', 'case-b', { members: ['bob'] }, 'bob');
    server.invite('messaging:case-a', 'amy');
    server.invite('messaging:case-b', 'amy');
    await settle();
    const pending = () => list.state.getSnapshot().pendingInvites.map((c) => c.cid);
    expect(pending()).toEqual(['messaging:case-a', 'messaging:case-b']);
    expect(cids(list)).toEqual(['messaging:c1']);

    server.sendMessage('messaging:case-a', 'bob', { text: 'welcome' });
    server.answerInvite('messaging:case-a', 'amy', true);
    await settle();
    expect(pending()).toEqual(['messaging:case-b']);
    expect(cids(list)).toEqual(['messaging:case-a', 'messaging:c1']);
    expect(list.state.getSnapshot().channels[0]?.lastMessage?.text).toBe('welcome');

    server.answerInvite('messaging:case-b', 'amy', false);
    await settle();
    expect(pending()).toEqual([]);
    expect(cids(list)).toEqual(['messaging:case-a', 'messaging:c1']);
  });

  it('an accepted invite to a channel outside the filter stays out of the list', async () => {
    const { server, amy } = await setup(1);
    const odd = amy.channelList({ filter: { members: { $in: ['amy'] }, team: 'odd' } });
    await odd.load();
    server.createChannel('messaging', 'even', { members: ['bob'], team: 'even' }, 'bob');
    server.invite('messaging:even', 'amy');
    await settle();
    expect(odd.state.getSnapshot().pendingInvites).toHaveLength(1);
    server.answerInvite('messaging:even', 'amy', true);
    await settle();
    expect(odd.state.getSnapshot()).toMatchObject({ channels: [], pendingInvites: [] });
  });

  it('when the active channel leaves the list the first becomes active, or none', async () => {
    const { server, amy, list } = await setup(3);
    expect(cids(list)).toEqual(['messaging:c3', 'messaging:c2', 'messaging:c1']);
    amy.setActiveChannel(amy.channel('messaging', 'c2'));
    server.setHidden('messaging:c2', 'amy', true);
    await settle();
    expect(cids(list)).toEqual(['messaging:c3', 'messaging:c1']);
    expect(amy.activeChannel.getSnapshot()?.cid).toBe('messaging:c3');

    // Another channel leaving does not change the active one.
    server.changeMembers('messaging:c1', ['amy'], 'removed');
    await settle();
    expect(amy.activeChannel.getSnapshot()?.cid).toBe('messaging:c3');

    server.emit('messaging:c3', { type: 'channel.deleted', cid: 'messaging:c3', created_at: at() });
    await settle();
    expect(cids(list)).toEqual([]);
    expect(amy.activeChannel.getSnapshot()).toBeUndefined();
  });

  it('user.updated reaches list items: members, last message author, read state', async () => {
    const { server, list } = await setup(2);
    server.emitToUser('amy', { type: 'user.updated', user: { id: 'bob', name: 'Robert' }, created_at: at() });
    await settle();
    for (const item of list.state.getSnapshot().channels) {
      expect(item.members.find((m) => m.user_id === 'bob')?.user?.name).toBe('Robert');
      expect(item.lastMessage?.user?.name).toBe('Robert');
      expect(item.instance.state.getSnapshot().read.bob?.user.name).toBe('Robert');
    }
  });

  it('asks for presence and follows user.presence.changed in members and message authors', async () => {
    const { server, list } = await setup(2);
    expect(server.requestsTo(/\/channels$/).at(-1)?.body).toMatchObject({ presence: true });
    const online = (value: boolean) =>
      server.emitToUser('amy', {
        type: 'user.presence.changed',
        user: { id: 'bob', name: 'Bob', online: value },
        created_at: at(),
      });
    online(true);
    await settle();
    for (const item of list.state.getSnapshot().channels) {
      expect(item.members.find((m) => m.user_id === 'bob')?.user?.online).toBe(true);
      expect(item.lastMessage?.user?.online).toBe(true);
    }
    online(false);
    await settle();
    for (const item of list.state.getSnapshot().channels) {
      expect(item.members.find((m) => m.user_id === 'bob')?.user?.online).toBe(false);
    }
  });

  it('capabilities.changed replaces own_capabilities of the listed channel only', async () => {
    const { server, list, amy } = await setup(2);
    const withoutSend = CAPABILITIES.filter((c) => c !== 'send-message');
    server.emit('messaging:c1', {
      type: 'capabilities.changed',
      cid: 'messaging:c1',
      own_capabilities: withoutSend,
      created_at: at(),
    } as ChatEvent);
    await settle();
    const item = (cid: string) => list.state.getSnapshot().channels.find((c) => c.cid === cid);
    expect(item('messaging:c1')?.channel.own_capabilities).toEqual(withoutSend);
    expect(item('messaging:c2')?.channel.own_capabilities).toContain('send-message');
    expect(amy.channel('messaging', 'c1').can('send-message')).toBe(false);
    expect(amy.channel('messaging', 'c1').composer.state.getSnapshot().disabledText).toBe(
      "You can't send messages in this channel",
    );
    // A later channel.updated keeps own_capabilities (chat-spec §4).
    server.updateChannel('messaging:c1', { topic: 'new' });
    await settle();
    expect(item('messaging:c1')?.channel).toMatchObject({ topic: 'new', own_capabilities: withoutSend });
  });

  it('channel.updated moves a channel into or out of the filter; a hidden channel returns with a message', async () => {
    const { server, amy } = await setup(2);
    const odd = amy.channelList({ filter: { members: { $in: ['amy'] }, team: 'odd' } });
    await odd.load();
    expect(cids(odd)).toEqual([]);
    server.updateChannel('messaging:c1', { team: 'odd' });
    await settle();
    expect(cids(odd)).toEqual(['messaging:c1']);
    server.updateChannel('messaging:c1', { team: 'even' });
    await settle();
    expect(cids(odd)).toEqual([]);

    const all = amy.channelList({ filter: { members: { $in: ['amy'] } } });
    await all.load();
    server.setHidden('messaging:c1', 'amy', true);
    await settle();
    expect(cids(all)).toEqual(['messaging:c2']);
    server.sendMessage('messaging:c1', 'bob', { text: 'back' });
    await settle();
    expect(cids(all)).toEqual(['messaging:c1', 'messaging:c2']);
  });
});
