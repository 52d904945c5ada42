import { afterEach, describe, expect, it } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { presentChannelState } from '../testing/fake-data.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';

describe('ChatChannel paging and jumps', () => {
  let amy: ChatClient;
  afterEach(async () => {
    await amy.disconnectUser();
  });

  async function setup(count: number) {
    const server = new FakeChatServer();
    server.createChannel('messaging', 'long', { members: ['amy', 'bob'] }, 'amy');
    for (let i = 1; i <= count; i++)
      server.sendMessage('messaging:long', 'bob', { id: `m${i}`, text: `${i}` });
    amy = await connectFakeClient(server, { id: 'amy' });
    return { server, channel: amy.channel('messaging', 'long') };
  }
  const texts = (channel: ReturnType<ChatClient['channel']>) =>
    channel.state.getSnapshot().messages.map((m) => Number(m.text));

  it('loads the latest page, then older pages with id_lt until hasPrev is false', async () => {
    const { server, channel } = await setup(60);
    await channel.watch();
    expect(texts(channel)).toEqual(Array.from({ length: 25 }, (_, i) => 36 + i));
    expect(channel.state.getSnapshot()).toMatchObject({ hasPrev: true, hasNext: false, isLatest: true });
    await channel.loadPrev();
    expect(server.requestsTo(/query$/).at(-1)?.body).toEqual({
      state: true,
      messages: { limit: 25, id_lt: 'm36' },
      members: { limit: 0 },
      watchers: { limit: 0 },
    });
    await channel.loadPrev();
    expect(texts(channel)[0]).toBe(1);
    expect(channel.state.getSnapshot().hasPrev).toBe(false);
  });

  it('jumps to an old message with id_around, then back to the latest without a query', async () => {
    const { server, channel } = await setup(200);
    await channel.watch();
    await channel.jumpToMessage('m50');
    expect(server.requestsTo(/query$/).at(-1)?.body).toMatchObject({ messages: { id_around: 'm50' } });
    expect(texts(channel)).toContain(50);
    expect(channel.state.getSnapshot()).toMatchObject({ isLatest: false, hasNext: true, hasPrev: true });
    const queries = server.requestsTo(/query$/).length;
    await channel.jumpToLatest();
    expect(server.requestsTo(/query$/)).toHaveLength(queries);
    expect(texts(channel).at(-1)).toBe(200);
    await channel.jumpToMessage('m190');
    expect(server.requestsTo(/query$/)).toHaveLength(queries);
  });

  it('keeps a failed local message when the channel is reloaded', async () => {
    const { server, channel } = await setup(3);
    await channel.watch();
    server.failNext(/message$/, { status: 403, code: 17, message: 'not allowed' });
    const failed = await channel.sendMessage({ text: 'mine' });
    expect(failed.error).toMatchObject({ status: 403, code: 17 });
    await channel.watch();
    expect(channel.state.getSnapshot().messages.at(-1)).toMatchObject({ id: failed.id, status: 'failed' });
  });
});

describe('a query answer read before a message committed', () => {
  let amy: ChatClient;
  afterEach(async () => {
    await amy.disconnectUser();
  });

  it('keeps the messages that committed after the answer was read, drops those the answer no longer has', async () => {
    const server = new FakeChatServer();
    const record = server.createChannel('messaging', 'race', { members: ['amy', 'bob'] }, 'amy');
    server.sendMessage('messaging:race', 'bob', { id: 'm1', text: 'one' });
    server.sendMessage('messaging:race', 'bob', { id: 'm2', text: 'two' });
    amy = await connectFakeClient(server, { id: 'amy' });
    const channel = amy.channel('messaging', 'race');
    await channel.watch();
    // An answer the server read before m3 committed, arriving after m3's message.new.
    const stale = presentChannelState(record, record.messages.slice(), server.users, 'amy');
    server.sendMessage('messaging:race', 'bob', { id: 'm3', text: 'three' });
    for (let i = 0; i < 100 && channel.state.getSnapshot().messages.length < 3; i++)
      await new Promise((r) => setTimeout(r, 10));
    channel.applyQueryAnswer(stale);
    expect(channel.state.getSnapshot().messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);

    // An answer read after m3 that no longer holds m2 (deleted meanwhile): m2 goes, m3 stays.
    const fresh = presentChannelState(
      record,
      [record.messages[0]!, record.messages[2]!],
      server.users,
      'amy',
    );
    channel.applyQueryAnswer(fresh);
    expect(channel.state.getSnapshot().messages.map((m) => m.id)).toEqual(['m1', 'm3']);
  });
});
