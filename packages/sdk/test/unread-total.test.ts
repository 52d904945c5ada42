import { describe, expect, it } from 'vitest';
import type { ChatClient } from '../src/index.js';
import { serverForSuite, until } from './support.js';

function total(client: ChatClient): number {
  return client.unread.getSnapshot().total_unread_count;
}

/**
 * The unread total the SDK keeps (read/unread-total) against the real server: a channel's `message.new` is framed
 * once for all its members and carries no totals, yet the reader's total follows it, reads, mutes and reconnects,
 * and agrees with the server's own `GET /chat/unread` at every step.
 */
describe('unread total, SDK and server', () => {
  const suite = serverForSuite([{ id: 'writer' }, { id: 'reader' }]);

  async function serverTotal(client: ChatClient): Promise<number> {
    return (await client.api.get<{ total_unread_count: number }>('/unread')).total_unread_count;
  }

  it('follows message.new on watched and unwatched channels, reads, mutes and a reconnect', async () => {
    const writer = await suite.connect('writer');
    const watched = writer.channel('messaging', 'unread-watched', { members: ['writer', 'reader'] });
    const quiet = writer.channel('messaging', 'unread-quiet', { members: ['writer', 'reader'] });
    await Promise.all([watched.watch(), quiet.watch()]);
    await watched.sendMessage({ text: 'before the reader connects' });

    const reader = await suite.connect('reader');
    await until(() => total(reader) === 1, 'the total from the server');
    const list = reader.channelList({ filter: { members: { $in: ['reader'] } }, limit: 1 });
    await list.load();
    // The list holds (and watches) only the newest channel; the other is known from the counts alone.
    expect(list.state.getSnapshot().channels.map((c) => c.cid)).toEqual(['messaging:unread-watched']);

    await watched.sendMessage({ text: 'one' });
    await quiet.sendMessage({ text: 'two' });
    await quiet.sendMessage({ text: 'three', silent: true });
    await until(() => total(reader) === 3, 'both messages counted');
    await expect.poll(() => serverTotal(reader)).toBe(3);
    expect(reader.unread.getSnapshot().unread_channels).toBe(2);

    // Reading the watched channel drops its two.
    const mine = reader.channel('messaging', 'unread-watched');
    mine.markRead();
    await until(() => total(reader) === 1, 'the watched channel read');
    await expect.poll(() => serverTotal(reader)).toBe(1);

    // A muted channel counts nothing, even when it gets messages.
    await reader.api.post('/moderation/mute/channel', { channel_cids: ['messaging:unread-quiet'] });
    await until(() => total(reader) === 0, 'the quiet channel muted');
    await quiet.sendMessage({ text: 'while muted' });
    await watched.sendMessage({ text: 'counts' });
    await until(() => total(reader) === 1, 'only the unmuted message');
    await expect.poll(() => serverTotal(reader)).toBe(1);
    await reader.api.post('/moderation/unmute/channel', { channel_cids: ['messaging:unread-quiet'] });
    await until(() => total(reader) === 3, 'the quiet channel back with its two');
    await expect.poll(() => serverTotal(reader)).toBe(3);

    // Another device of the reader reads the quiet channel: its count goes here too.
    const phone = await suite.connect('reader');
    const onPhone = phone.channel('messaging', 'unread-quiet');
    await onPhone.watch();
    onPhone.markRead();
    await until(() => total(reader) === 1, 'read on the phone');
    expect(reader.me.getSnapshot()?.total_unread_count).toBe(1);

    // Offline: what came meanwhile counts after the reconnect.
    await reader.disconnectUser();
    await quiet.sendMessage({ text: 'while away' });
    const again = await suite.connect('reader');
    await until(() => total(again) === 2, 'the total after reconnecting');
    await expect.poll(() => serverTotal(again)).toBe(2);
  });
});
