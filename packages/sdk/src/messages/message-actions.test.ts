import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';
import { MESSAGE_REMOVED_TEXT, removedByModerator } from '@caseroom/protocol';
import { pinExpiresIso } from './message-state.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('message actions against the fake server', () => {
  let server: FakeChatServer;
  let amy: ChatClient;
  let bob: ChatClient;

  beforeEach(async () => {
    server = new FakeChatServer();
    server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy');
    amy = await connectFakeClient(server, { id: 'amy' });
    bob = await connectFakeClient(server, { id: 'bob' });
  });
  afterEach(async () => {
    await amy.disconnectUser();
    await bob.disconnectUser();
  });

  async function setup() {
    const mine = amy.channel('messaging', 'general');
    const theirs = bob.channel('messaging', 'general');
    await mine.watch();
    await theirs.watch();
    const sent = await mine.sendMessage({ text: 'hello', attachments: [{ type: 'file', title: 'a.pdf' }] });
    await settle();
    return { mine, theirs, sent };
  }
  const held = (c: ReturnType<ChatClient['channel']>, id: string) =>
    c.state.getSnapshot().messages.find((m) => m.id === id);

  it('edit and partial update reach both clients', async () => {
    const { mine, theirs, sent } = await setup();
    await mine.updateMessage({ id: sent.id, text: 'hello there' });
    await settle();
    expect(held(mine, sent.id)?.text).toBe('hello there');
    expect(held(theirs, sent.id)?.text).toBe('hello there');
    await mine.partialUpdateMessage(sent.id, { set: { topic: 'x' } });
    await settle();
    expect(held(theirs, sent.id)).toMatchObject({ text: 'hello there', topic: 'x' });
  });

  it('a failed edit is reverted with "Edit message request failed"', async () => {
    const { mine, sent } = await setup();
    server.failNext(/POST \/messages\//, { status: 500, code: -1, message: 'boom' });
    await expect(mine.updateMessage({ id: sent.id, text: 'changed' })).rejects.toThrow('boom');
    expect(held(mine, sent.id)?.text).toBe('hello');
    expect(amy.notifications.getSnapshot().map((n) => n.text)).toContain('Edit message request failed');
  });

  it('soft delete: type deleted, attachments cleared; hard delete: gone; for me: deleted_for_me', async () => {
    const { mine, theirs, sent } = await setup();
    await mine.deleteMessage(sent.id);
    await settle();
    expect(held(theirs, sent.id)).toMatchObject({ type: 'deleted', attachments: [], text: '' });
    const second = await mine.sendMessage({ text: 'second' });
    await settle();
    await mine.deleteMessage(second.id, 'hard');
    await settle();
    expect(held(mine, second.id)).toBeUndefined();
    expect(held(theirs, second.id)).toBeUndefined();
    const third = await mine.sendMessage({ text: 'third' });
    await settle();
    await theirs.deleteMessage(third.id, 'for-me');
    expect(held(theirs, third.id)).toMatchObject({ type: 'deleted', deleted_for_me: true });
    expect(held(mine, third.id)).toMatchObject({ type: 'regular', text: 'third' });
    expect(server.requestsTo(/DELETE \/messages\//).map((r) => r.query)).toEqual([
      expect.not.objectContaining({ hard: 'true' }),
      expect.objectContaining({ hard: 'true' }),
      expect.objectContaining({ delete_for_me: 'true' }),
    ]);
  });

  it('a moderator\'s removal shows "Message removed by a moderator" on both clients, never the words', async () => {
    const { mine, theirs, sent } = await setup();
    await theirs.deleteMessage(sent.id);
    await settle();
    for (const c of [mine, theirs]) {
      const message = held(c, sent.id);
      expect(message).toMatchObject({ type: 'deleted', text: MESSAGE_REMOVED_TEXT, attachments: [] });
      expect(message && removedByModerator(message)).toBe(true);
    }
    await mine.sendMessage({ text: 'own' }).then((own) => mine.deleteMessage(own.id));
    await settle();
    const own = theirs.state.getSnapshot().messages.at(-1);
    expect(own).toMatchObject({ type: 'deleted', text: '' });
    expect(own && removedByModerator(own)).toBe(false);
  });

  it('pin with an expiry in seconds, then unpin, with the notices', async () => {
    const { mine, theirs, sent } = await setup();
    const pinning = mine.pinMessage(sent.id, 60);
    expect(held(mine, sent.id)?.pinned).toBe(true); // at once
    await pinning;
    await settle();
    const expires = held(theirs, sent.id)?.pin_expires;
    expect(held(theirs, sent.id)?.pinned).toBe(true);
    expect(Date.parse(expires ?? '') - Date.now()).toBeGreaterThan(55_000);
    await mine.unpinMessage(sent.id);
    await settle();
    expect(held(theirs, sent.id)).toMatchObject({ pinned: false, pin_expires: null });
    expect(amy.notifications.getSnapshot().map((n) => n.text)).toEqual([
      'Message pinned',
      'Message unpinned',
    ]);
  });

  it('a failed pin is reverted with "Error pinning message"', async () => {
    const { mine, sent } = await setup();
    server.failNext(/PUT \/messages\//, { status: 403, code: 17, message: 'no' });
    await expect(mine.pinMessage(sent.id)).rejects.toThrow();
    expect(held(mine, sent.id)?.pinned).toBe(false);
    expect(amy.notifications.getSnapshot().map((n) => n.text)).toContain('Error pinning message');
  });

  it('reactions: own_reactions only for the reacting user, counts for everyone', async () => {
    const { mine, theirs, sent } = await setup();
    const reacting = theirs.sendReaction(sent.id, { type: 'love' });
    expect(held(theirs, sent.id)?.reaction_counts).toEqual({ love: 1 }); // optimistic
    await reacting;
    await settle();
    expect(held(theirs, sent.id)?.own_reactions.map((r) => r.type)).toEqual(['love']);
    expect(held(mine, sent.id)).toMatchObject({ reaction_counts: { love: 1 }, own_reactions: [] });
    await mine.sendReaction(sent.id, { type: 'love' });
    await settle();
    expect(held(theirs, sent.id)?.reaction_counts).toEqual({ love: 2 });
    expect(held(theirs, sent.id)?.own_reactions).toHaveLength(1);
    await theirs.deleteReaction(sent.id, 'love');
    await settle();
    expect(held(theirs, sent.id)).toMatchObject({ reaction_counts: { love: 1 }, own_reactions: [] });
    expect(held(mine, sent.id)?.own_reactions.map((r) => r.type)).toEqual(['love']);
  });

  it('flag: own messages refused; a server failure shows "Error adding flag"', async () => {
    const { mine, theirs, sent } = await setup();
    await expect(mine.flagMessage(sent.id)).rejects.toThrow('own messages');
    await expect(theirs.flagMessage(sent.id)).rejects.toThrow(); // the fake has no moderation route
    expect(bob.notifications.getSnapshot().map((n) => n.text)).toContain('Error adding flag');
  });

  it('mark unread failure shows "Error marking message as unread"', async () => {
    const { mine, sent } = await setup();
    server.failNext(/unread$/, { status: 400, code: 4, message: 'no' });
    await expect(mine.markUnread(sent.id)).rejects.toThrow();
    expect(amy.notifications.getSnapshot().map((n) => n.text)).toContain('Error marking message as unread');
  });
});

describe('pinExpiresIso', () => {
  it('accepts seconds from now, an ISO string or a date; null for none', () => {
    const now = Date.parse('2026-01-01T00:00:00.000Z');
    expect(pinExpiresIso(90, now)).toBe('2026-01-01T00:01:30.000Z');
    expect(pinExpiresIso('2026-02-01T10:00:00Z')).toBe('2026-02-01T10:00:00.000Z');
    expect(pinExpiresIso(new Date('2026-03-01T00:00:00Z'))).toBe('2026-03-01T00:00:00.000Z');
    expect(pinExpiresIso(null)).toBeNull();
    expect(() => pinExpiresIso('soon')).toThrow('invalid pin expiry');
  });
});
