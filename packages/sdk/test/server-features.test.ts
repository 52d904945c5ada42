import { describe, expect, it } from 'vitest';
import { serverForSuite, until } from './support.js';

describe('SDK against the real server: thread list, thread read, flag, reaction queries', () => {
  const { connect } = serverForSuite([
    { id: 'maria', name: 'Maria' },
    { id: 'chloe', name: 'Chloe' },
    { id: 'omar', name: 'Omar' },
  ]);

  it('threads.load() lists the thread with its unread count; opening it marks it read for both sides', async () => {
    const maria = await connect('maria');
    const chloe = await connect('chloe');
    const mine = maria.channel('messaging', 'sdk-threads', { members: ['maria', 'chloe'] });
    await mine.watch();
    const theirs = chloe.channel('messaging', 'sdk-threads');
    await theirs.watch();
    const parent = await mine.sendMessage({ text: 'a question' });
    await until(() => theirs.findMessage(parent.id) !== undefined, 'chloe sees the parent');
    const chloeThread = chloe.threads.thread(theirs.findMessage(parent.id)!);
    const reply = await chloeThread.sendReply({ text: 'an answer' });
    expect(reply.status).toBe('received');

    await maria.threads.load();
    const listed = maria.threads.state.getSnapshot();
    expect(listed.status).toBe('ready');
    expect(listed.threads.map((t) => t.id)).toEqual([parent.id]);
    const thread = listed.threads[0]!;
    expect(thread.state.getSnapshot()).toMatchObject({ cid: 'messaging:sdk-threads', unreadCount: 1 });
    expect(thread.state.getSnapshot().replies.map((r) => r.text)).toEqual(['an answer']);
    expect(listed.unreadThreadCount).toBe(1);

    maria.threads.setActive(thread);
    await until(
      () => chloeThread.state.getSnapshot().read.maria !== undefined,
      "maria's thread read reaches chloe",
    );
    expect(maria.threads.state.getSnapshot().unreadThreadCount).toBe(0);
    // The channel's own read state is not a thread read.
    expect(theirs.state.getSnapshot().read.maria?.last_read_message_id).not.toBe(reply.id);
    maria.threads.setActive(undefined);
    await maria.threads.load();
    expect(maria.threads.state.getSnapshot().threads[0]?.state.getSnapshot().unreadCount).toBe(0);

    // A new reply to the listed thread moves it up and counts as unread again.
    await chloeThread.sendReply({ text: 'one more' });
    await until(() => maria.threads.state.getSnapshot().unreadThreadCount === 1, 'the new reply is unread');
  });

  it("flags another user's message once; own messages and repeats are refused with the §8 notice", async () => {
    const maria = await connect('maria');
    const omar = await connect('omar');
    const mine = maria.channel('messaging', 'sdk-flags', { members: ['maria', 'omar'] });
    await mine.watch();
    const theirs = omar.channel('messaging', 'sdk-flags');
    await theirs.watch();
    const sent = await mine.sendMessage({ text: 'flag me' });
    await until(() => theirs.findMessage(sent.id) !== undefined, 'omar sees the message');

    await theirs.flagMessage(sent.id, 'spam');
    expect(omar.notifications.getSnapshot().map((n) => n.text)).toContain(
      'Message has been successfully flagged',
    );
    await expect(theirs.flagMessage(sent.id)).rejects.toMatchObject({ status: expect.any(Number) });
    expect(omar.notifications.getSnapshot().map((n) => n.text)).toContain('Error adding flag');
    await expect(mine.flagMessage(sent.id)).rejects.toThrow();
    expect(maria.notifications.getSnapshot().map((n) => n.text)).toContain('Error adding flag');
  });

  it('queryReactions pages the reactions of a message newest first, with users, by type', async () => {
    const maria = await connect('maria');
    const chloe = await connect('chloe');
    const omar = await connect('omar');
    const mine = maria.channel('messaging', 'sdk-reactions', { members: ['maria', 'chloe', 'omar'] });
    await mine.watch();
    const sent = await mine.sendMessage({ text: 'react' });
    for (const [client, type] of [
      [chloe, 'like'],
      [omar, 'love'],
      [maria, 'like'],
    ] as const) {
      const channel = client.channel('messaging', 'sdk-reactions');
      await channel.watch();
      await channel.sendReaction(sent.id, { type });
    }
    const all = await mine.queryReactions(sent.id);
    expect(all.reactions.map((r) => [r.user_id, r.type])).toEqual([
      ['maria', 'like'],
      ['omar', 'love'],
      ['chloe', 'like'],
    ]);
    expect(all.reactions[1]?.user?.name).toBe('Omar');
    expect(all.next).toBeUndefined();
    const first = await mine.queryReactions(sent.id, { limit: 2 });
    expect(first.reactions).toHaveLength(2);
    const rest = await mine.queryReactions(sent.id, { limit: 2, next: first.next! });
    expect(rest.reactions.map((r) => r.user_id)).toEqual(['chloe']);
    const likes = await maria.messageActions.queryAllReactions(sent.id, { type: 'like' });
    expect(likes.map((r) => r.user_id)).toEqual(['maria', 'chloe']);
  });
});
