import type { Message, Reaction } from '@caseroom/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';

describe('reaction queries (chat-spec §9: pages of 300, at most 1200)', () => {
  let server: FakeChatServer;
  let amy: ChatClient;
  let message: Message;

  beforeEach(async () => {
    server = new FakeChatServer();
    server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy');
    amy = await connectFakeClient(server, { id: 'amy' });
    message = server.sendMessage('messaging:general', 'bob', { text: 'react to me' });
  });
  afterEach(() => amy.disconnectUser());

  /** Gives the held message `count` reactions, alternating like / love, oldest first. */
  function react(count: number): void {
    const record = server.channels.get('messaging:general');
    const index = record?.messages.findIndex((m) => m.id === message.id) ?? -1;
    const reactions: Reaction[] = Array.from({ length: count }, (_, i) => ({
      type: i % 2 === 0 ? 'like' : 'love',
      score: 1,
      user_id: `u${i}`,
      user: { id: `u${i}` },
      message_id: message.id,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    }));
    if (record) record.messages[index] = { ...message, latest_reactions: reactions };
  }

  it('pages newest first with a next token, filtered by type', async () => {
    react(5);
    const channel = amy.channel('messaging', 'general');
    const first = await channel.queryReactions(message.id, { limit: 2 });
    expect(first.reactions.map((r) => r.user_id)).toEqual(['u4', 'u3']);
    expect(first.next).toBeDefined();
    const second = await channel.queryReactions(message.id, {
      limit: 2,
      ...(first.next ? { next: first.next } : {}),
    });
    expect(second.reactions.map((r) => r.user_id)).toEqual(['u2', 'u1']);
    const likes = await amy.messageActions.queryReactions(message.id, { type: 'like' });
    expect(likes.reactions.map((r) => r.user_id)).toEqual(['u4', 'u2', 'u0']);
    expect(likes.next).toBeUndefined();
    expect(server.requestsTo(/reactions$/).at(-1)?.query).toMatchObject({
      limit: '300',
      offset: '0',
      type: 'like',
    });
    await expect(channel.queryReactions(message.id, { offset: 1, next: 'offset:2' })).rejects.toThrow(
      'Cannot specify offset with next',
    );
  });

  it('fetches at most 1200 in pages of 300', async () => {
    react(1500);
    const all = await amy.messageActions.queryAllReactions(message.id);
    expect(all).toHaveLength(1200);
    expect(new Set(all.map((r) => r.user_id)).size).toBe(1200);
    expect(server.requestsTo(/reactions$/).map((r) => [r.query.limit, r.query.offset])).toEqual([
      ['300', '0'],
      ['300', '300'],
      ['300', '600'],
      ['300', '900'],
    ]);
  });

  it('a failed query shows "Error loading reactions" and rejects', async () => {
    server.failNext(/reactions$/, { status: 500, code: -1, message: 'boom' });
    await expect(amy.messageActions.queryReactions(message.id)).rejects.toThrow('boom');
    expect(amy.notifications.getSnapshot().map((n) => n.text)).toContain('Error loading reactions');
  });
});
