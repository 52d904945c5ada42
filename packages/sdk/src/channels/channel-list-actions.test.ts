import type { ChannelState } from '@caseroom/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';

const settle = async () => {
  for (let i = 0; i < 8; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

describe('channel list management: mute, hide, pin, archive', () => {
  const clients: ChatClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.disconnectUser();
  });

  async function setup() {
    const server = new FakeChatServer();
    server.upsertUser({ id: 'bob', name: 'Bob' });
    for (let i = 1; i <= 3; i++) {
      server.createChannel('messaging', `c${i}`, { members: ['amy', 'bob'] }, 'amy');
      server.sendMessage(`messaging:c${i}`, 'bob', { text: `hello ${i}` });
    }
    const amy = await connectFakeClient(server, { id: 'amy' });
    clients.push(amy);
    return { server, amy };
  }
  const cids = (list: ReturnType<ChatClient['channelList']>) =>
    list.state.getSnapshot().channels.map((c) => c.cid);

  it('pin puts the channel first in a list sorted by pinned_at and sets membership.pinned_at; unpin undoes it', async () => {
    const { amy } = await setup();
    const list = amy.channelList({
      filter: { members: { $in: ['amy'] } },
      sort: [
        { field: 'pinned_at', direction: -1 },
        { field: 'last_message_at', direction: -1 },
      ],
    });
    await list.load();
    expect(cids(list)).toEqual(['messaging:c3', 'messaging:c2', 'messaging:c1']);
    const c1 = amy.channel('messaging', 'c1');
    const member = await c1.pin();
    expect(member.pinned_at).toEqual(expect.any(String));
    expect(c1.state.getSnapshot().membership?.pinned_at).toBe(member.pinned_at);
    expect(cids(list)).toEqual(['messaging:c1', 'messaging:c3', 'messaging:c2']);
    expect(list.state.getSnapshot().channels[0]?.membership?.pinned_at).toBe(member.pinned_at);

    // A fresh query agrees with the state the events left (stale state + events = fresh fetch).
    await list.load();
    expect(cids(list)).toEqual(['messaging:c1', 'messaging:c3', 'messaging:c2']);

    await c1.unpin();
    expect(c1.state.getSnapshot().membership?.pinned_at).toBeNull();
    expect(cids(list)).toEqual(['messaging:c3', 'messaging:c2', 'messaging:c1']);
  });

  it('a query answer read before the pin does not undo it (newer membership wins)', async () => {
    const { amy } = await setup();
    const c1 = amy.channel('messaging', 'c1');
    await c1.watch();
    const stale = await amy.api.post<ChannelState>('/channels/messaging/c1/query', { state: true });
    const member = await c1.pin();
    c1.applyQueryAnswer(stale);
    expect(c1.state.getSnapshot().membership?.pinned_at).toBe(member.pinned_at);
    c1.applyQueryAnswer(await amy.api.post<ChannelState>('/channels/messaging/c1/query', { state: true }));
    expect(c1.state.getSnapshot().membership?.pinned_at).toBe(member.pinned_at);
  });

  it('archive moves the channel from the archived:false list to the archived:true list and back', async () => {
    const { amy } = await setup();
    const main = amy.channelList({ filter: { members: { $in: ['amy'] }, archived: false } });
    const archived = amy.channelList({ filter: { members: { $in: ['amy'] }, archived: true } });
    await Promise.all([main.load(), archived.load()]);
    expect(cids(archived)).toEqual([]);
    await amy.channel('messaging', 'c2').archive();
    await settle();
    expect(cids(main)).toEqual(['messaging:c3', 'messaging:c1']);
    expect(cids(archived)).toEqual(['messaging:c2']);
    await archived.load();
    expect(cids(archived)).toEqual(['messaging:c2']);

    await amy.channel('messaging', 'c2').unarchive();
    await settle();
    expect(cids(main)).toEqual(['messaging:c3', 'messaging:c2', 'messaging:c1']);
    expect(cids(archived)).toEqual([]);
  });

  it('archiving the active channel takes it out of the main list but keeps it active (it is still the user’s)', async () => {
    const { amy } = await setup();
    const main = amy.channelList({ filter: { members: { $in: ['amy'] }, archived: false } });
    await main.load();
    const c2 = amy.channel('messaging', 'c2');
    amy.setActiveChannel(c2);
    await c2.archive();
    expect(cids(main)).toEqual(['messaging:c3', 'messaging:c1']);
    expect(amy.activeChannel.getSnapshot()).toBe(c2);
  });

  it('mute marks the channel muted (muteStatus, list item) and takes it out of the unread totals', async () => {
    const { amy } = await setup();
    const list = amy.channelList({ filter: { members: { $in: ['amy'] } } });
    await list.load();
    await amy.refreshUnreadTotals();
    expect(amy.me.getSnapshot()?.total_unread_count).toBe(3);
    const c2 = amy.channel('messaging', 'c2');
    await c2.mute();
    await settle();
    expect(c2.muteStatus()).toEqual({ muted: true });
    expect(list.state.getSnapshot().channels.find((c) => c.cid === 'messaging:c2')?.muted).toBe(true);
    expect(amy.me.getSnapshot()?.total_unread_count).toBe(2);
    expect(amy.me.getSnapshot()?.unread_channels).toBe(2);

    await c2.unmute();
    await settle();
    expect(c2.muteStatus()).toEqual({ muted: false });
    expect(list.state.getSnapshot().channels.find((c) => c.cid === 'messaging:c2')?.muted).toBe(false);
    expect(amy.me.getSnapshot()?.total_unread_count).toBe(3);
  });

  it('a timed mute carries its end', async () => {
    const { amy } = await setup();
    const c1 = amy.channel('messaging', 'c1');
    await c1.watch();
    await c1.mute({ expiration: 60_000 });
    const status = c1.muteStatus();
    expect(status.muted).toBe(true);
    expect(Date.parse(status.expiresAt ?? '')).toBeGreaterThan(Date.now());
  });

  it('hide removes the channel from the list until a new message brings it back; show brings it back too', async () => {
    const { server, amy } = await setup();
    const list = amy.channelList({ filter: { members: { $in: ['amy'] } } });
    await list.load();
    const c3 = amy.channel('messaging', 'c3');
    await c3.hide();
    await settle();
    expect(cids(list)).toEqual(['messaging:c2', 'messaging:c1']);
    expect(c3.state.getSnapshot().channel?.hidden).toBe(true);
    await list.load();
    expect(cids(list)).toEqual(['messaging:c2', 'messaging:c1']);

    server.sendMessage('messaging:c3', 'bob', { text: 'back again' });
    await settle();
    expect(cids(list)).toEqual(['messaging:c3', 'messaging:c2', 'messaging:c1']);
    expect(c3.state.getSnapshot().channel?.hidden).toBe(false);

    const c1 = amy.channel('messaging', 'c1');
    await c1.hide();
    await settle();
    expect(cids(list)).toEqual(['messaging:c3', 'messaging:c2']);
    await c1.show();
    await settle();
    expect(cids(list)).toEqual(['messaging:c3', 'messaging:c2', 'messaging:c1']);
  });

  it('a pin made on another connection of the user reaches this one through member.updated', async () => {
    const { server, amy } = await setup();
    const list = amy.channelList({
      filter: { members: { $in: ['amy'] }, pinned: true },
      sort: [{ field: 'pinned_at', direction: -1 }],
    });
    await list.load();
    expect(cids(list)).toEqual([]);
    const other = await connectFakeClient(server, { id: 'amy' });
    clients.push(other);
    await other.channel('messaging', 'c1').pin();
    await settle();
    expect(cids(list)).toEqual(['messaging:c1']);
    expect(amy.channel('messaging', 'c1').state.getSnapshot().membership?.pinned_at).toEqual(
      expect.any(String),
    );
  });

  it('new messages from others count in the totals, muted channels left out', async () => {
    const { server } = await setup();
    const amy = await connectFakeClient(server, { id: 'amy' });
    clients.push(amy);
    await amy.channel('messaging', 'c1').watch();
    await amy.channel('messaging', 'c2').watch();
    await amy.channel('messaging', 'c2').mute();
    const totals = () => amy.me.getSnapshot()?.total_unread_count;
    for (let i = 0; i < 200 && totals() !== 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(totals()).toBe(2);
    server.sendMessage('messaging:c2', 'bob', { text: 'muted news' });
    server.sendMessage('messaging:c1', 'bob', { text: 'news' });
    for (let i = 0; i < 200 && totals() !== 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(totals()).toBe(3);
    expect(amy.me.getSnapshot()?.unread_channels).toBe(2);
  });
});
