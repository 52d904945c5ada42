import { describe, expect, it } from 'vitest';
import type { ChatClient, LocalMessage } from '../src/index.js';
import { serverForSuite, until } from './support.js';

describe('two SDK clients against the real server on PostgreSQL', () => {
  const { connect } = serverForSuite([
    { id: 'maria', name: 'Maria' },
    { id: 'chloe', name: 'Chloe' },
  ]);

  it('exchange messages: each sees the other, and its own go sending -> received', async () => {
    const maria = await connect('maria');
    const chloe = await connect('chloe');
    expect(maria.connection.getSnapshot()).toMatchObject({ status: 'connected', online: true });
    expect(maria.me.getSnapshot()?.id).toBe('maria');

    const mariaChannel = maria.channel('messaging', 'sdk-two-clients', { members: ['maria', 'chloe'] });
    await mariaChannel.watch();
    const chloeList = chloe.channelList({ filter: { members: { $in: ['chloe'] } } });
    await chloeList.load();
    expect(chloeList.state.getSnapshot().channels.map((c) => c.cid)).toEqual(['messaging:sdk-two-clients']);
    const chloeChannel = chloe.channel('messaging', 'sdk-two-clients');
    await chloeChannel.watch();

    /** Every status each message of `channel` went through, by id, from now on. */
    const track = (channel: ReturnType<ChatClient['channel']>) => {
      const seen = new Map<string, LocalMessage['status'][]>();
      const unsubscribe = channel.state.subscribe(() => {
        for (const m of channel.state.getSnapshot().messages) {
          const list = seen.get(m.id) ?? [];
          if (list.at(-1) !== m.status) list.push(m.status);
          seen.set(m.id, list);
        }
      });
      return { seen, unsubscribe };
    };

    const mariaWatch = track(mariaChannel);
    const sending = mariaChannel.sendMessage({ text: 'Hello Chloe' });
    const mariaId = mariaChannel.state.getSnapshot().messages.at(-1)?.id ?? '';
    expect(mariaChannel.state.getSnapshot().messages.at(-1)).toMatchObject({
      text: 'Hello Chloe',
      status: 'sending',
    });
    const sent = await sending;
    expect(sent).toMatchObject({ id: mariaId, status: 'received', text: 'Hello Chloe' });
    expect(mariaWatch.seen.get(mariaId)).toEqual(['sending', 'received']);

    await until(
      () => chloeChannel.state.getSnapshot().messages.some((m) => m.id === mariaId),
      'chloe sees maria',
    );
    expect(chloeChannel.state.getSnapshot().messages.find((m) => m.id === mariaId)).toMatchObject({
      text: 'Hello Chloe',
      status: 'received',
      user: { id: 'maria' },
    });
    expect(chloeList.state.getSnapshot().channels[0]?.lastMessage?.id).toBe(mariaId);

    const chloeWatch = track(chloeChannel);
    const reply = chloeChannel.sendMessage({ text: 'Hi Maria' });
    const chloeId = chloeChannel.state.getSnapshot().messages.at(-1)?.id ?? '';
    expect((await reply).status).toBe('received');
    expect(chloeWatch.seen.get(chloeId)).toEqual(['sending', 'received']);
    // Maria's message reached Chloe as received only: no local echo on the receiving side.
    expect(chloeWatch.seen.get(mariaId)).toEqual(['received']);
    await until(
      () => mariaChannel.state.getSnapshot().messages.some((m) => m.id === chloeId),
      'maria sees chloe',
    );

    // No duplicates on either side: own copies merged with their message.new events.
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const channel of [mariaChannel, chloeChannel]) {
      const ids = channel.state.getSnapshot().messages.map((m) => m.id);
      expect(ids).toEqual([mariaId, chloeId]);
    }
    mariaWatch.unsubscribe();
    chloeWatch.unsubscribe();
  });

  it('a repeat send of the same id counts as received, not as a duplicate', async () => {
    const maria = await connect('maria');
    const channel = maria.channel('messaging', 'sdk-two-clients');
    await channel.watch();
    const sent = await channel.sendMessage({ text: 'once' });
    const again = await channel.resendMessage({ ...sent, status: 'failed' });
    expect(again.status).toBe('received');
    expect(channel.state.getSnapshot().messages.filter((m) => m.id === sent.id)).toHaveLength(1);
  });
});
