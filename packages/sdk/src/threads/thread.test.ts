import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('threads', () => {
  let server: FakeChatServer;
  let amy: ChatClient;

  beforeEach(async () => {
    server = new FakeChatServer();
    server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy');
    amy = await connectFakeClient(server, { id: 'amy' });
  });
  afterEach(async () => {
    await amy.disconnectUser();
  });

  async function parentWithReplies(count: number) {
    const parent = server.sendMessage('messaging:general', 'bob', { text: 'parent' });
    for (let i = 0; i < count; i += 1)
      server.sendMessage('messaging:general', 'bob', { text: `r${i}`, parent_id: parent.id });
    const channel = amy.channel('messaging', 'general');
    await channel.watch();
    const held = channel.state.getSnapshot().messages.find((m) => m.id === parent.id);
    if (!held) throw new Error('parent not loaded');
    return { channel, parent: held };
  }

  it('replies stay out of the main list; the parent reply_count follows', async () => {
    const { channel, parent } = await parentWithReplies(0);
    server.sendMessage('messaging:general', 'bob', { text: 'reply', parent_id: parent.id });
    await settle();
    const main = channel.state.getSnapshot().messages;
    expect(main.map((m) => m.text)).toEqual(['parent']);
    expect(main[0]?.reply_count).toBe(1);
  });

  it('pages replies 50 at a time, newest page first', async () => {
    const { parent } = await parentWithReplies(120);
    const thread = amy.threads.thread(parent);
    amy.threads.setActive(thread);
    await settle();
    await settle();
    expect(thread.state.getSnapshot()).toMatchObject({ active: true, hasPrev: true, loading: false });
    expect(thread.state.getSnapshot().replies).toHaveLength(50);
    expect(thread.state.getSnapshot().replies[0]?.text).toBe('r70');
    await thread.loadPrev();
    await thread.loadPrev();
    expect(thread.state.getSnapshot().replies).toHaveLength(120);
    expect(thread.state.getSnapshot().hasPrev).toBe(false);
    expect(server.requestsTo(/replies$/).map((r) => r.query.limit)).toEqual(['50', '50', '50']);
  });

  it('reply local echo: sending -> received, and failed with the error (resend clears it)', async () => {
    const { parent } = await parentWithReplies(0);
    const thread = amy.threads.thread(parent);
    const sending = thread.sendReply({ text: 'mine' });
    expect(thread.state.getSnapshot().replies.at(-1)).toMatchObject({
      text: 'mine',
      status: 'sending',
      parent_id: parent.id,
    });
    expect((await sending).status).toBe('received');
    await settle();
    expect(thread.state.getSnapshot().replies.filter((r) => r.text === 'mine')).toHaveLength(1);

    server.failNext(/message$/, { status: 500, code: -1, message: 'boom' });
    const failed = await thread.sendReply({ text: 'lost' });
    expect(failed).toMatchObject({ status: 'failed', error: { code: -1 } });
    const again = await thread.resendReply(failed);
    expect(again.status).toBe('received');
    expect(again.error).toBeUndefined();
  });

  it('turns stale when the channel stops being watched; an active stale thread reloads', async () => {
    const { channel, parent } = await parentWithReplies(2);
    const idle = amy.threads.thread(parent);
    await channel.stopWatching();
    expect(idle.state.getSnapshot().stale).toBe(true);
    const before = server.requestsTo(/replies$/).length;
    amy.threads.setActive(idle);
    await settle();
    await settle();
    expect(server.requestsTo(/replies$/).length).toBe(before + 1);
    expect(idle.state.getSnapshot()).toMatchObject({ stale: false, active: true });
    expect(channel.state.getSnapshot().watching).toBe(true);
  });

  it('thread manager: list, unseen ids for threads not listed, unread count, reload after a drop', async () => {
    const { parent } = await parentWithReplies(1);
    await amy.threads.load();
    expect(amy.threads.state.getSnapshot().threads.map((t) => t.id)).toEqual([parent.id]);
    server.sendMessage('messaging:general', 'bob', { text: 'more', parent_id: parent.id });
    await settle();
    expect(amy.threads.state.getSnapshot().unreadThreadCount).toBe(1);
    const other = server.sendMessage('messaging:general', 'amy', { text: 'other parent' });
    server.sendMessage('messaging:general', 'bob', { text: 'new thread', parent_id: other.id });
    await settle();
    expect(amy.threads.state.getSnapshot().unseenThreadIds).toEqual([other.id]);

    server.dropConnections();
    await settle();
    expect(amy.threads.state.getSnapshot().threads[0]?.state.getSnapshot().stale).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 800)); // backoff, reconnect, recovery
    expect(server.requestsTo(/POST \/threads$/)).toHaveLength(2);
    expect(amy.threads.state.getSnapshot()).toMatchObject({ unseenThreadIds: [] });
    expect(amy.threads.state.getSnapshot().threads).toHaveLength(2);
  });

  it('selecting another channel closes the open thread', async () => {
    const { parent } = await parentWithReplies(1);
    const thread = amy.threads.thread(parent);
    amy.threads.setActive(thread);
    server.createChannel('messaging', 'other', { members: ['amy'] }, 'amy');
    amy.setActiveChannel(amy.channel('messaging', 'other'));
    expect(amy.threads.active.getSnapshot()).toBeUndefined();
    expect(thread.state.getSnapshot().active).toBe(false);
  });
});
