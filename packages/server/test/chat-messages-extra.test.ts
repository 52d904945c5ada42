import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signChatToken } from '../src/chat/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatCall, chatUser, openSocket, type ChatUserClient } from './chat-support.js';

let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;
let chloe: ChatUserClient;
const send = (user: ChatUserClient, id: string, extra: Record<string, unknown> = {}) =>
  user.call('POST', '/channels/messaging/extra/message', { message: { id, text: `text ${id}`, ...extra } });

beforeAll(async () => {
  server = await startTestServer({ productChatRules: false });
  maria = await chatUser(server, 'maria');
  noah = await chatUser(server, 'noah');
  chloe = await chatUser(server, 'chloe');
  await maria.call('POST', '/channels/messaging/extra/query', {
    data: { members: ['maria', 'noah', 'chloe'] },
  });
});

afterAll(async () => {
  await server?.close();
});

describe('flag, undelete, get many, pinned', () => {
  it('flags others’ messages once, never one’s own', async () => {
    await send(maria, 'f-1');
    const flag = await noah.call('POST', '/moderation/flag', { target_message_id: 'f-1', reason: 'spam' });
    expect(flag.body).toMatchObject({
      flag: { target_message_id: 'f-1', user: { id: 'noah' }, reason: 'spam' },
    });
    expect((await noah.call('POST', '/moderation/flag', { target_message_id: 'f-1' })).body).toMatchObject({
      code: 4,
    });
    expect((await maria.call('POST', '/moderation/flag', { target_message_id: 'f-1' })).status).toBe(403);
    expect((await noah.call('POST', '/moderation/flag', { target_message_id: 'nope' })).status).toBe(404);
  });

  it('undeletes a soft-deleted message for moderators, restoring content and unread counts', async () => {
    await send(maria, 'u-1', { attachments: [{ type: 'file', asset_url: 'a' }] });
    const before = (await noah.call('GET', '/unread')).body.total_unread_count as number;
    await maria.call('DELETE', '/messages/u-1');
    expect((await noah.call('GET', '/unread')).body.total_unread_count).toBe(before - 1);
    expect((await noah.call('POST', '/messages/u-1/undelete', {})).status).toBe(403);
    const socket = await openSocket(server, { token: noah.token });
    const server_ = await signChatToken(server.config, { server: true });
    const res = await chatCall(server, 'POST', '/messages/u-1/undelete', { token: server_, body: {} });
    expect(res.body).toMatchObject({ message: { id: 'u-1', type: 'regular', text: 'text u-1' } });
    expect((res.body.message as { attachments: unknown[] }).attachments).toHaveLength(1);
    expect(await socket.next('message.undeleted')).toMatchObject({ message: { id: 'u-1', type: 'regular' } });
    expect((await noah.call('GET', '/unread')).body.total_unread_count).toBe(before);
    expect(
      (await chatCall(server, 'POST', '/messages/u-1/undelete', { token: server_, body: {} })).status,
    ).toBe(400);
    await socket.close();
  });

  it('gets many messages by id, in channel order, only from that channel', async () => {
    await send(maria, 'g-1');
    await send(noah, 'g-2');
    const res = await chloe.call('GET', '/channels/messaging/extra/messages', undefined, {
      ids: 'g-2,g-1,zzz',
    });
    expect((res.body.messages as Array<{ id: string }>).map((m) => m.id)).toEqual(['g-1', 'g-2']);
    await maria.call('POST', '/channels/messaging/private/query', { data: { members: ['maria'] } });
    expect(
      (await chloe.call('GET', '/channels/messaging/private/messages', undefined, { ids: 'g-1' })).status,
    ).toBe(403);
  });

  it('lists pinned messages and honours pin expiry', async () => {
    await send(maria, 'p-1');
    await send(maria, 'p-2');
    await maria.call('PUT', '/messages/p-1', { set: { pinned: true } });
    await maria.call('PUT', '/messages/p-2', { set: { pinned: true, pin_expires: 1 } });
    const now = await noah.call('GET', '/channels/messaging/extra/pinned_messages');
    expect((now.body.messages as Array<{ id: string }>).map((m) => m.id).sort()).toEqual(['p-1', 'p-2']);
    await new Promise((r) => setTimeout(r, 1100));
    const later = await noah.call('GET', '/channels/messaging/extra/pinned_messages');
    expect((later.body.messages as Array<{ id: string }>).map((m) => m.id)).toEqual(['p-1']);
    const expired = await noah.call('GET', '/messages/p-2');
    expect(expired.body.message).toMatchObject({ pinned: false, pin_expires: null });
  });
});

describe('unread counts', () => {
  it('GET /unread, POST /unread_batch (admin only) and mark all read', async () => {
    await maria.call('POST', '/channels/messaging/second/query', { data: { members: ['maria', 'chloe'] } });
    await maria.call('POST', '/channels/messaging/second/message', { message: { text: 'x' } });
    const mine = await chloe.call('GET', '/unread');
    expect(mine.body).toMatchObject({ unread_channels: 2 });
    expect(mine.body.channels).toEqual(
      expect.arrayContaining([expect.objectContaining({ channel_id: 'messaging:second', unread_count: 1 })]),
    );
    expect(mine.body.channel_type).toEqual([
      expect.objectContaining({ channel_type: 'messaging', channel_count: 2 }),
    ]);
    expect((await chloe.call('POST', '/unread_batch', { user_ids: ['noah'] })).status).toBe(403);
    const token = await signChatToken(server.config, { server: true });
    const batch = await chatCall(server, 'POST', '/unread_batch', {
      token,
      body: { user_ids: ['chloe', 'noah'] },
    });
    expect(batch.body).toMatchObject({ counts_by_user: { chloe: { unread_channels: 2 }, noah: {} } });

    const socket = await openSocket(server, { token: chloe.token });
    expect((await chloe.call('POST', '/channels/read', {})).status).toBe(200);
    expect(await socket.next('notification.mark_read')).toMatchObject({
      total_unread_count: 0,
      unread_channels: 0,
    });
    expect((await chloe.call('GET', '/unread')).body).toMatchObject({ total_unread_count: 0, channels: [] });
    await socket.close();
  });
});

describe('threads', () => {
  it('queries, gets, reads and updates threads with per-thread unread state', async () => {
    await send(maria, 't-parent');
    await send(noah, 't-r1', { parent_id: 't-parent' });
    await send(chloe, 't-r2', { parent_id: 't-parent' });
    await send(noah, 't-r3', { parent_id: 't-parent' });
    await send(noah, 't-r4', { parent_id: 't-parent' });

    const list = await maria.call('POST', '/threads', {});
    const thread = (list.body.threads as Array<Record<string, unknown>>)[0];
    expect(thread).toMatchObject({
      parent_message_id: 't-parent',
      channel_cid: 'messaging:extra',
      reply_count: 4,
      participant_count: 3,
    });
    expect((thread?.latest_replies as Array<{ id: string }>).map((m) => m.id)).toEqual([
      't-r2',
      't-r3',
      't-r4',
    ]);
    const mariaRead = (thread?.read as Array<{ user: { id: string }; unread_messages: number }>).find(
      (r) => r.user.id === 'maria',
    );
    expect(mariaRead?.unread_messages).toBe(4);
    expect((await maria.call('GET', '/unread')).body).toMatchObject({ total_unread_threads_count: 1 });

    const one = await maria.call('GET', '/threads/t-parent', undefined, { reply_limit: '1' });
    expect((one.body.thread as { latest_replies: unknown[] }).latest_replies).toHaveLength(1);
    expect((await maria.call('GET', '/threads/t-r1')).status).toBe(400);

    const socket = await openSocket(server, { token: noah.token });
    const read = await maria.call('POST', '/channels/messaging/extra/read', { thread_id: 't-parent' });
    expect(read.status).toBe(200);
    expect(await socket.next('message.read')).toMatchObject({ thread_id: 't-parent', user: { id: 'maria' } });
    expect((await maria.call('GET', '/unread')).body).toMatchObject({ total_unread_threads_count: 0 });

    const patched = await maria.call('PATCH', '/threads/t-parent', { set: { title: 'Plan', topic: 'care' } });
    expect(patched.body).toMatchObject({ thread: { title: 'Plan', topic: 'care' } });
    expect(await socket.next('thread.updated')).toMatchObject({
      thread: { parent_message_id: 't-parent', title: 'Plan' },
    });
    const reserved = await maria.call('PATCH', '/threads/t-parent', { set: { reply_count: 9 } });
    expect(reserved).toMatchObject({
      status: 400,
      body: { code: 4, message: 'You cannot set reply_count field on Thread object' },
    });
    expect((await chloe.call('PATCH', '/threads/t-parent', { set: { title: 'x' } })).status).toBe(403);
    const unset = await maria.call('PATCH', '/threads/t-parent', { unset: ['topic'] });
    expect(unset.body.thread).not.toHaveProperty('topic');
    await socket.close();
  });

  it('pages threads with next', async () => {
    for (const p of ['n-1', 'n-2', 'n-3']) {
      await send(maria, p);
      await send(noah, `${p}-r`, { parent_id: p });
    }
    const first = await noah.call('POST', '/threads', { limit: 2 });
    const ids = (first.body.threads as Array<{ parent_message_id: string }>).map((t) => t.parent_message_id);
    expect(ids).toEqual(['n-3', 'n-2']);
    const second = await noah.call('POST', '/threads', { limit: 2, next: first.body.next });
    expect((second.body.threads as Array<{ parent_message_id: string }>)[0]?.parent_message_id).toBe('n-1');
    expect((await noah.call('POST', '/threads', { next: 'garbage' })).status).toBe(400);
  });
});

describe('delivery reports', () => {
  it('POST /channels/delivered records the newest delivered message and emits message.delivered', async () => {
    await send(maria, 'd-1');
    await send(maria, 'd-2');
    const socket = await openSocket(server, { token: maria.token });
    const res = await noah.call('POST', '/channels/delivered', {
      latest_delivered_messages: [
        { cid: 'messaging:extra', id: 'd-2' },
        { cid: 'messaging:private', id: 'd-1' },
        { cid: 'messaging:extra', id: 'nope' },
      ],
    });
    expect(res.status).toBe(200);
    expect(await socket.next('message.delivered')).toMatchObject({
      cid: 'messaging:extra',
      user: { id: 'noah' },
      last_delivered_message_id: 'd-2',
    });
    // An older report does not move it back.
    await noah.call('POST', '/channels/delivered', {
      latest_delivered_messages: [{ cid: 'messaging:extra', id: 'd-1' }],
    });
    expect(await socket.receives('message.delivered', 200)).toBe(false);
    const state = await maria.call('POST', '/channels/messaging/extra/query', {});
    const read = (
      state.body.read as Array<{ user: { id: string }; last_delivered_message_id?: string }>
    ).find((r) => r.user.id === 'noah');
    expect(read?.last_delivered_message_id).toBe('d-2');
    const many = Array.from({ length: 101 }, () => ({ cid: 'messaging:extra', id: 'd-1' }));
    expect((await noah.call('POST', '/channels/delivered', { latest_delivered_messages: many })).status).toBe(
      400,
    );
    await socket.close();
  });
});
