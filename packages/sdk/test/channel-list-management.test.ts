import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatClient } from '../src/index.js';
import { connectTo, serverHelper, until, type TestServer } from './support.js';

interface ServerApi {
  getOrCreateChannel(type: string, id: string, data: { members: string[] }, by: string): Promise<unknown>;
}

/**
 * Mute, hide, pin and archive through the SDK against the real server on PostgreSQL: the state each call changes,
 * the lists' reaction to the server's events, and a fresh query agreeing with what the events left.
 */
describe('channel list management against the server', () => {
  let server: TestServer;
  const clients: ChatClient[] = [];

  beforeAll(async () => {
    server = await (await serverHelper()).startTestServer({ productChatRules: false });
    await server.app.chat.server.upsertUsers([{ id: 'amy' }, { id: 'bob' }]);
    const api = server.app.chat.server as unknown as ServerApi;
    for (const id of ['l1', 'l2', 'l3']) {
      await api.getOrCreateChannel('messaging', id, { members: ['amy', 'bob'] }, 'amy');
    }
  });
  afterAll(async () => {
    for (const client of clients) await client.disconnectUser();
    await server?.close();
  });

  async function connect(id: string) {
    const client = await connectTo(server, id);
    clients.push(client);
    return client;
  }
  const cids = (list: ReturnType<ChatClient['channelList']>) =>
    list.state.getSnapshot().channels.map((c) => c.cid);

  it('pin puts a channel first (sort by pinned_at) on this and another connection; a reload agrees', async () => {
    const bob = await connect('bob');
    for (const id of ['l1', 'l2', 'l3']) {
      await bob.channel('messaging', id).watch();
      await bob.channel('messaging', id).sendMessage({ text: `hello ${id}` });
    }
    const amy = await connect('amy');
    const amyElsewhere = await connect('amy');
    const options = {
      filter: { members: { $in: ['amy'] }, archived: false },
      sort: [
        { field: 'pinned_at', direction: -1 as const },
        { field: 'last_message_at', direction: -1 as const },
      ],
    };
    const list = amy.channelList(options);
    const other = amyElsewhere.channelList(options);
    await Promise.all([list.load(), other.load()]);
    expect(cids(list)).toEqual(['messaging:l3', 'messaging:l2', 'messaging:l1']);

    const member = await amy.channel('messaging', 'l1').pin();
    expect(member.pinned_at).toEqual(expect.any(String));
    expect(cids(list)).toEqual(['messaging:l1', 'messaging:l3', 'messaging:l2']);
    await until(() => cids(other)[0] === 'messaging:l1', 'the other connection sees the pin');
    expect(amyElsewhere.channel('messaging', 'l1').state.getSnapshot().membership?.pinned_at).toBe(
      member.pinned_at,
    );
    await other.load();
    expect(cids(other)).toEqual(['messaging:l1', 'messaging:l3', 'messaging:l2']);

    await amy.channel('messaging', 'l1').unpin();
    expect(cids(list)).toEqual(['messaging:l3', 'messaging:l2', 'messaging:l1']);
  });

  it('archive moves a channel from the archived:false list into the archived:true list and back', async () => {
    const amy = await connect('amy');
    const main = amy.channelList({ filter: { members: { $in: ['amy'] }, archived: false } });
    const archived = amy.channelList({ filter: { members: { $in: ['amy'] }, archived: true } });
    await Promise.all([main.load(), archived.load()]);
    await amy.channel('messaging', 'l2').archive();
    await until(() => cids(archived).includes('messaging:l2'), 'the archived list gets it');
    expect(cids(main)).not.toContain('messaging:l2');
    await Promise.all([main.load(), archived.load()]);
    expect(cids(archived)).toEqual(['messaging:l2']);
    expect(cids(main)).not.toContain('messaging:l2');

    await amy.channel('messaging', 'l2').unarchive();
    await until(() => cids(main).includes('messaging:l2'), 'back in the main list');
    expect(cids(archived)).toEqual([]);
  });

  it('mute sets channel.muted, leaves the unread totals and is told to other connections; unmute undoes it', async () => {
    const amy = await connect('amy');
    const amyElsewhere = await connect('amy');
    const list = amy.channelList({ filter: { members: { $in: ['amy'] } } });
    await list.load();
    await amy.refreshUnreadTotals();
    const before = amy.me.getSnapshot()?.total_unread_count ?? 0;
    const unreadHere = list.state.getSnapshot().channels.find((c) => c.cid === 'messaging:l3')?.unreadCount;
    expect(unreadHere).toBeGreaterThan(0);

    const l3 = amy.channel('messaging', 'l3');
    await l3.mute();
    expect(l3.muteStatus().muted).toBe(true);
    expect(list.state.getSnapshot().channels.find((c) => c.cid === 'messaging:l3')?.muted).toBe(true);
    await until(() => amy.me.getSnapshot()?.total_unread_count === before - (unreadHere ?? 0), 'totals drop');
    const elsewhere = amyElsewhere.channel('messaging', 'l3');
    await elsewhere.watch();
    expect(elsewhere.muteStatus().muted).toBe(true);

    await l3.unmute();
    expect(l3.muteStatus().muted).toBe(false);
    await until(() => elsewhere.muteStatus().muted === false, 'the other connection hears the unmute');
    await until(() => amy.me.getSnapshot()?.total_unread_count === before, 'totals back');
  });

  it('hide removes a channel until a new message arrives; show brings it back', async () => {
    const amy = await connect('amy');
    const bob = clients.find((c) => c.me.getSnapshot()?.id === 'bob') ?? (await connect('bob'));
    const list = amy.channelList({ filter: { members: { $in: ['amy'] } } });
    await list.load();
    const l1 = amy.channel('messaging', 'l1');
    await l1.hide();
    expect(l1.state.getSnapshot().channel?.hidden).toBe(true);
    expect(cids(list)).not.toContain('messaging:l1');
    await list.load();
    expect(cids(list)).not.toContain('messaging:l1');

    await bob.channel('messaging', 'l1').sendMessage({ text: 'are you there?' });
    await until(() => cids(list)[0] === 'messaging:l1', 'a new message brings it back on top');
    expect(l1.state.getSnapshot().channel?.hidden).toBe(false);

    await l1.hide();
    expect(cids(list)).not.toContain('messaging:l1');
    await l1.show();
    await until(() => cids(list).includes('messaging:l1'), 'show brings it back');
  });
});
