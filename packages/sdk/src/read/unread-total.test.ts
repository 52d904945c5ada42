import type { ChatEvent } from '@caseroom/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { listStateOf } from '../testing/fake-membership.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';

const A = 'messaging:a';
const B = 'messaging:b';
const C = 'messaging:c';

/** Lets queued microtasks and fake-server replies run. */
async function settle(rounds = 30): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await settle(5);
  }
  throw new Error(`timed out waiting for ${what}`);
}

function total(client: ChatClient): number {
  return client.unread.getSnapshot().total_unread_count;
}

describe('the unread total kept by the client (fake server)', () => {
  const clients: ChatClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.disconnectUser();
    vi.useRealTimers();
  });

  async function setup() {
    const server = new FakeChatServer();
    for (const id of ['a', 'b', 'c'])
      server.createChannel('messaging', id, { members: ['amy', 'bob'] }, 'bob');
    // Two unread in a and one in b before amy connects.
    server.sendMessage(A, 'bob', { text: 'a1' });
    server.sendMessage(A, 'bob', { text: 'a2' });
    server.sendMessage(B, 'bob', { text: 'b1' });
    const amy = await connectFakeClient(server, { id: 'amy' });
    clients.push(amy);
    await until(
      () => server.requestsTo(/GET \/unread$/).length === 1 && total(amy) === 3,
      'the first counts',
    );
    return { server, amy };
  }

  it('starts from the server: health.check totals at once, then the per-channel counts of GET /unread', async () => {
    const { amy } = await setup();
    expect(amy.unread.getSnapshot()).toEqual({ total_unread_count: 3, unread_channels: 2 });
    expect(amy.me.getSnapshot()).toMatchObject({ total_unread_count: 3, unread_channels: 2 });
  });

  it('counts others’ main-list messages on channels it does not hold; own, silent and thread replies do not count', async () => {
    const { server, amy } = await setup();
    const seen: number[] = [];
    amy.unread.subscribe(() => seen.push(total(amy)));
    server.sendMessage(C, 'bob', { text: 'c1' });
    await until(() => total(amy) === 4, 'c1 counted');
    server.sendMessage(C, 'amy', { text: 'mine' });
    server.sendMessage(C, 'bob', { text: 'quiet', silent: true });
    const parent = server.sendMessage(C, 'bob', { text: 'parent' });
    server.sendMessage(C, 'bob', { text: 'reply', parent_id: parent.id });
    await until(() => total(amy) === 5, 'parent counted');
    await settle();
    expect(amy.unread.getSnapshot()).toEqual({ total_unread_count: 5, unread_channels: 3 });
    // One snapshot per change, none for what does not count.
    expect(seen).toEqual([4, 5]);
    expect(amy.me.getSnapshot()?.total_unread_count).toBe(5);
  });

  it('follows a held channel’s own count: watch, new messages, marking read', async () => {
    const { server, amy } = await setup();
    const a = amy.channel('messaging', 'a');
    await a.watch();
    expect(a.state.getSnapshot().unreadCount).toBe(2);
    server.sendMessage(A, 'bob', { text: 'a3' });
    await until(() => total(amy) === 4, 'a3 counted once');
    a.markRead();
    // The local read drops the channel at once, before the server's notification.
    expect(total(amy)).toBe(1);
    await until(() => server.requestsTo(/a\/read$/).length === 1, 'the read request');
    await settle();
    expect(amy.unread.getSnapshot()).toEqual({ total_unread_count: 1, unread_channels: 1 });
  });

  it('a throttled read sent after the reader moved on reads no further than what they had when asking', async () => {
    const { server, amy } = await setup();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const b = amy.channel('messaging', 'b');
    await b.watch();
    b.markRead();
    b.markRead(); // throttled: sent 1050 ms later
    amy.setActiveChannel(undefined);
    server.sendMessage(B, 'bob', { text: 'after leaving' });
    await vi.advanceTimersByTimeAsync(1100);
    expect(server.requestsTo(/b\/read$/)).toHaveLength(2);
    expect(server.channels.get(B)?.read.get('amy')?.unread_messages).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(total(amy)).toBe(3);
  });

  it('drops a channel read on another device (notification.mark_read and message.read by the user)', async () => {
    const { server, amy } = await setup();
    const phone = await connectFakeClient(server, { id: 'amy' });
    clients.push(phone);
    await phone.channel('messaging', 'b').watch();
    phone.channel('messaging', 'b').markRead();
    await until(() => total(amy) === 2, 'b read elsewhere');
    expect(amy.unread.getSnapshot().unread_channels).toBe(1);
  });

  it('marks unread to the count the server names', async () => {
    const { server, amy } = await setup();
    const b = amy.channel('messaging', 'b');
    await b.watch();
    b.markRead();
    await until(() => total(amy) === 2, 'b read');
    const first = server.channels.get(B)?.messages[0]?.id ?? '';
    await b.markUnread(first);
    await until(() => total(amy) === 3, 'b unread again');
  });

  /** The fake server's list state of channel A for `userId` (where its mutes live). */
  const muteState = (server: FakeChatServer, userId: string) => {
    const record = server.channels.get(A);
    if (!record) throw new Error('channel A missing');
    return listStateOf(record, userId);
  };

  it('leaves muted channels out and asks the server again when the mutes change', async () => {
    const { server, amy } = await setup();
    muteState(server, 'amy').muted = true;
    server.emitToUser('amy', mutesEvent([A]));
    await until(() => total(amy) === 1, 'a muted');
    server.sendMessage(A, 'bob', { text: 'while muted' });
    await settle();
    expect(total(amy)).toBe(1);
    muteState(server, 'amy').muted = false;
    server.emitToUser('amy', mutesEvent([]));
    await until(() => total(amy) === 4, 'a unmuted with its messages');
  });

  it('forgets a deleted channel', async () => {
    const { server, amy } = await setup();
    server.emit(A, {
      type: 'channel.deleted',
      cid: A,
      channel_id: 'a',
      channel_type: 'messaging',
      created_at: server.now(),
    } as ChatEvent);
    await until(() => total(amy) === 1, 'a gone');
  });

  it('fetches the counts again after a reconnect (messages missed while offline)', async () => {
    const { server } = await setup();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const tablet = await connectFakeClient(server, { id: 'amy' }, { random: () => 0 });
    clients.push(tablet);
    await vi.advanceTimersByTimeAsync(0);
    expect(total(tablet)).toBe(3);
    server.dropConnections();
    await vi.advanceTimersByTimeAsync(0);
    // Missed while offline: no socket hears it, only the counts fetched after the reconnect bring it.
    server.sendMessage(C, 'bob', { text: 'missed' });
    expect(total(tablet)).toBe(3);
    await vi.advanceTimersByTimeAsync(500);
    expect(tablet.connection.getSnapshot().status).toBe('connected');
    expect(total(tablet)).toBe(4);
    expect(tablet.me.getSnapshot()?.total_unread_count).toBe(4);
  });

  it('fetches again when a notification’s own totals disagree with the sum', async () => {
    const { server, amy } = await setup();
    // The server counts one more than the client knows (say, a message the client never heard of).
    server.channels.get(C)?.read.set('amy', { last_read: server.now(), unread_messages: 2 });
    const b = amy.channel('messaging', 'b');
    await b.watch();
    b.markRead();
    await until(() => total(amy) === 4, 'the corrected total');
    expect(server.requestsTo(/GET \/unread$/)).toHaveLength(2);
  });
});

function mutesEvent(cids: string[]): ChatEvent {
  return {
    type: 'notification.channel_mutes_updated',
    me: { id: 'amy', channel_mutes: cids.map((cid) => ({ cid })) },
    created_at: new Date().toISOString(),
  };
}
