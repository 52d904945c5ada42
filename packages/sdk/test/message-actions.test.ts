import { describe, expect, it } from 'vitest';
import { serverForSuite, until } from './support.js';

describe('message actions and threads against the real server on PostgreSQL', () => {
  const { connect } = serverForSuite([
    { id: 'maria', name: 'Maria' },
    { id: 'chloe', name: 'Chloe' },
  ]);

  it('edit, react, pin, thread replies and deletes converge on both clients', async () => {
    const maria = await connect('maria');
    const chloe = await connect('chloe');
    const mine = maria.channel('messaging', 'sdk-actions', { members: ['maria', 'chloe'] });
    await mine.watch();
    const theirs = chloe.channel('messaging', 'sdk-actions');
    await theirs.watch();
    const held = (c: typeof mine, id: string) => c.state.getSnapshot().messages.find((m) => m.id === id);

    const sent = await mine.sendMessage({ text: 'first' });
    await until(() => held(theirs, sent.id) !== undefined, 'chloe sees the message');
    await mine.updateMessage({ id: sent.id, text: 'first, edited' });
    await until(() => held(theirs, sent.id)?.text === 'first, edited', 'the edit');

    await theirs.sendReaction(sent.id, { type: 'love' });
    await until(() => held(mine, sent.id)?.reaction_counts.love === 1, 'the reaction count');
    expect(held(mine, sent.id)?.own_reactions).toEqual([]);
    expect(held(theirs, sent.id)?.own_reactions.map((r) => r.type)).toEqual(['love']);

    await mine.pinMessage(sent.id, 3600);
    await until(() => held(theirs, sent.id)?.pinned === true, 'the pin');
    expect(Date.parse(held(theirs, sent.id)?.pin_expires ?? '')).toBeGreaterThan(Date.now() + 3_000_000);

    const thread = chloe.threads.thread(held(theirs, sent.id)!);
    chloe.threads.setActive(thread);
    const reply = await thread.sendReply({ text: 'in the thread' });
    expect(reply.status).toBe('received');
    await until(() => held(mine, sent.id)?.reply_count === 1, 'the reply count');
    expect(mine.state.getSnapshot().messages.some((m) => m.id === reply.id)).toBe(false);
    const mariaThread = maria.threads.thread(held(mine, sent.id)!);
    await mariaThread.reload();
    expect(mariaThread.state.getSnapshot().replies.map((r) => r.text)).toEqual(['in the thread']);

    await mine.deleteMessage(sent.id);
    await until(() => held(theirs, sent.id)?.type === 'deleted', 'the soft delete');
    expect(held(theirs, sent.id)?.attachments).toEqual([]);
    const gone = await mine.sendMessage({ text: 'to be removed' });
    await until(() => held(theirs, gone.id) !== undefined, 'the second message');
    await mine.deleteMessage(gone.id, 'hard');
    await until(() => held(theirs, gone.id) === undefined, 'the hard delete');
    const mineOnly = await theirs.sendMessage({ text: 'hide for me' });
    await until(() => held(mine, mineOnly.id) !== undefined, 'the third message');
    await mine.deleteMessage(mineOnly.id, 'for-me');
    expect(held(mine, mineOnly.id)).toMatchObject({ type: 'deleted', deleted_for_me: true });
    expect(held(theirs, mineOnly.id)?.type).toBe('regular');
  });
});
