import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';

describe('thread read marking (chat-spec §9: throttled 1000 ms)', () => {
  let server: FakeChatServer;
  let amy: ChatClient;
  let bob: ChatClient;

  beforeEach(async () => {
    server = new FakeChatServer();
    server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy');
    amy = await connectFakeClient(server, { id: 'amy' });
    bob = await connectFakeClient(server, { id: 'bob' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await amy.disconnectUser();
    await bob.disconnectUser();
  });

  const threadReads = () =>
    server.requestsTo(/\/read$/).filter((r) => (r.body as { thread_id?: string }).thread_id);

  it('opening marks read at once; replies arriving while open are marked at most once per second', async () => {
    const parent = server.sendMessage('messaging:general', 'bob', { text: 'parent' });
    server.sendMessage('messaging:general', 'bob', { text: 'r0', parent_id: parent.id });
    const channel = amy.channel('messaging', 'general');
    await channel.watch();
    const thread = amy.threads.thread(channel.findMessage(parent.id)!);
    server.sendMessage('messaging:general', 'bob', { text: 'r1', parent_id: parent.id });
    await vi.advanceTimersByTimeAsync(0);
    expect(thread.state.getSnapshot().unreadCount).toBe(1);

    amy.threads.setActive(thread);
    await vi.advanceTimersByTimeAsync(0);
    expect(thread.state.getSnapshot().unreadCount).toBe(0);
    expect(threadReads()).toHaveLength(1);
    expect(threadReads()[0]?.body).toEqual({ thread_id: parent.id });
    expect(threadReads()[0]?.path).toBe('/channels/messaging/general/read');

    for (let i = 2; i < 6; i++) {
      server.sendMessage('messaging:general', 'bob', { text: `r${i}`, parent_id: parent.id });
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(threadReads()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(threadReads()).toHaveLength(2);
    expect(thread.state.getSnapshot().unreadCount).toBe(0);
  });

  it("a thread read reaches the thread's read state, not the channel's", async () => {
    const parent = server.sendMessage('messaging:general', 'amy', { text: 'parent' });
    const mine = amy.channel('messaging', 'general');
    const theirs = bob.channel('messaging', 'general');
    await mine.watch();
    await theirs.watch();
    const before = mine.state.getSnapshot().read.bob;
    const bobThread = bob.threads.thread(theirs.findMessage(parent.id)!);
    const amyThread = amy.threads.thread(mine.findMessage(parent.id)!);
    bobThread.markRead();
    await vi.advanceTimersByTimeAsync(0);
    expect(amyThread.state.getSnapshot().read.bob?.user.id).toBe('bob');
    expect(mine.state.getSnapshot().read.bob).toEqual(before);
  });
});
