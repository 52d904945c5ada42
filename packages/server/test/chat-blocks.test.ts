import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, openSocket, type ChatUserClient } from './chat-support.js';

/** Blocks (`/chat/users/block`) and `clear_history` across every read path. */
let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;
let olga: ChatUserClient;

beforeAll(async () => {
  server = await startTestServer({ database: 'postgres', productChatRules: false });
  maria = await chatUser(server, 'maria');
  noah = await chatUser(server, 'noah');
  olga = await chatUser(server, 'olga');
  await maria.call('POST', '/channels/messaging/dm/query', { data: { members: ['maria', 'noah'] } });
  await maria.call('POST', '/channels/messaging/group/query', {
    data: { members: ['maria', 'noah', 'olga'] },
  });
});

afterAll(async () => {
  await server?.close();
});

const send = (who: ChatUserClient, cid: string, text: string, extra: Record<string, unknown> = {}) =>
  who.call('POST', `/channels/messaging/${cid}/message`, { message: { text, ...extra } });

describe('blocking', () => {
  it('ends the direct conversation both ways, hides it for the blocker, leaves groups alone', async () => {
    const mariaSocket = await openSocket(server, { token: maria.token });
    const res = await maria.call('POST', '/users/block', { blocked_user_id: 'noah' });
    expect(res.body).toMatchObject({ blocked_by_user_id: 'maria', blocked_user_id: 'noah' });
    expect(await mariaSocket.next('channel.hidden')).toMatchObject({ cid: 'messaging:dm' });
    expect((await send(noah, 'dm', 'hi?')).body).toMatchObject({ code: 17 });
    expect((await send(maria, 'dm', 'hi?')).body).toMatchObject({ code: 17 });
    expect((await send(noah, 'group', 'group still works')).status).toBe(200);
    const dm = await maria.call<{ channel: { blocked: boolean; hidden: boolean } }>(
      'POST',
      '/channels/messaging/dm/query',
      {},
    );
    expect(dm.body.channel).toMatchObject({ blocked: true, hidden: true });
    const noahView = await noah.call<{ channel: { blocked: boolean } }>(
      'POST',
      '/channels/messaging/dm/query',
      {},
    );
    expect(noahView.body.channel.blocked).toBe(false);
    const list = await maria.call('GET', '/users/block');
    expect(list.body).toMatchObject({ blocks: [{ user_id: 'maria', blocked_user_id: 'noah' }] });
    expect((await noah.call('GET', '/users/block')).body).toEqual({ blocks: [] });

    expect((await maria.call('POST', '/users/block', { blocked_user_id: 'maria' })).body).toMatchObject({
      code: 4,
    });
    expect((await maria.call('POST', '/users/block', { blocked_user_id: 'ghost' })).body).toMatchObject({
      code: 16,
    });
    expect(
      (await olga.call('POST', '/users/block', { blocked_user_id: 'noah', user_id: 'maria' })).body,
    ).toMatchObject({
      code: 17,
    });

    await maria.call('POST', '/users/unblock', { blocked_user_id: 'noah' });
    expect(await mariaSocket.next('channel.visible')).toMatchObject({ cid: 'messaging:dm' });
    expect((await send(noah, 'dm', 'hi again')).status).toBe(200);
    expect((await maria.call('POST', '/users/unblock', { blocked_user_id: 'noah' })).body).toMatchObject({
      code: 16,
    });
    await mariaSocket.close();
  });
});

describe('clear_history', () => {
  it('hides the earlier messages from that member on every read path', async () => {
    await send(maria, 'group', 'old parent', { id: 'old-parent' });
    await send(noah, 'group', 'old reply', { id: 'old-reply', parent_id: 'old-parent' });
    await maria.call('PUT', '/messages/old-parent', { set: { pinned: true } });
    await olga.call('POST', '/channels/messaging/group/hide', { clear_history: true });
    await new Promise((r) => setTimeout(r, 20));
    await send(noah, 'group', 'new reply', { id: 'new-reply', parent_id: 'old-parent' });

    const ids = await olga.call<{ messages: unknown[] }>(
      'GET',
      '/channels/messaging/group/messages',
      undefined,
      {
        ids: 'old-parent,new-reply',
      },
    );
    expect(ids.body.messages).toMatchObject([{ id: 'new-reply' }]);
    expect((await olga.call('GET', '/messages/old-parent')).body).toMatchObject({ code: 16 });
    const replies = await olga.call<{ messages: Array<{ id: string }> }>(
      'GET',
      '/messages/old-parent/replies',
    );
    expect(replies.body.messages.map((m) => m.id)).toEqual(['new-reply']);
    const pinned = await olga.call<{ messages: unknown[] }>(
      'GET',
      '/channels/messaging/group/pinned_messages',
    );
    expect(pinned.body.messages).toEqual([]);
    const state = await olga.call<{ pinned_messages: unknown[] }>(
      'POST',
      '/channels/messaging/group/query',
      {},
    );
    expect(state.body.pinned_messages).toEqual([]);

    // Others still see everything.
    const mariaPinned = await maria.call<{ messages: unknown[] }>(
      'GET',
      '/channels/messaging/group/pinned_messages',
    );
    expect(mariaPinned.body.messages).toHaveLength(1);
    const mariaReplies = await maria.call<{ messages: unknown[] }>('GET', '/messages/old-parent/replies');
    expect(mariaReplies.body.messages).toHaveLength(2);
  });
});
