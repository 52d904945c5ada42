import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, openSocket, type ChatUserClient } from './chat-support.js';

let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;
let eve: ChatUserClient;
const CID = 'messaging:activity';
const BASE = '/channels/messaging/activity';

beforeAll(async () => {
  server = await startTestServer({ database: 'postgres', productChatRules: false });
  maria = await chatUser(server, 'maria', 'Maria Lopez');
  noah = await chatUser(server, 'noah', 'Noah Smith');
  eve = await chatUser(server, 'eve', 'Eve');
  await server.app.chat.server.getOrCreateChannel(
    'messaging',
    'activity',
    { members: ['maria', 'noah'] },
    'maria',
  );
});

afterAll(async () => {
  await server?.close();
});

const send = (user: ChatUserClient, id: string, text: string, extra: Record<string, unknown> = {}) =>
  user.call('POST', `${BASE}/message`, { message: { id, text, ...extra } });

describe('read state', () => {
  it('counts unread per member, reports it in health.check, and marks read with message.read', async () => {
    await send(maria, 'r1', 'one');
    await send(maria, 'r2', 'two');
    const socket = await openSocket(server, { token: noah.token });
    expect(socket.first).toMatchObject({ me: { total_unread_count: 2, unread_channels: 1 } });
    const mariaSocket = await openSocket(server, { token: maria.token });
    const read = await noah.call('POST', `${BASE}/read`, {});
    expect(read.status).toBe(200);
    expect(await mariaSocket.next('message.read')).toMatchObject({
      cid: CID,
      user: { id: 'noah' },
      last_read_message_id: 'r2',
    });
    expect(await socket.next('notification.mark_read')).toMatchObject({
      total_unread_count: 0,
      unread_channels: 0,
    });
    const unread = await noah.call('POST', `${BASE}/unread`, { message_id: 'r2' });
    expect(unread.body).toMatchObject({ event: { unread_messages: 1, total_unread_count: 1 } });
    await Promise.all([socket.close(), mariaSocket.close()]);
  });
});

describe('typing', () => {
  it('relays typing.start to members only, and refuses non-members', async () => {
    const noahSocket = await openSocket(server, { token: noah.token });
    const eveSocket = await openSocket(server, { token: eve.token });
    const res = await maria.call('POST', `${BASE}/event`, {
      event: { type: 'typing.start', parent_id: 'r1' },
    });
    expect(res.status).toBe(200);
    expect(await noahSocket.next('typing.start')).toMatchObject({
      cid: CID,
      user: { id: 'maria' },
      parent_id: 'r1',
    });
    expect(await eveSocket.receives('typing.start')).toBe(false);
    const denied = await eve.call('POST', `${BASE}/event`, { event: { type: 'typing.start' } });
    expect(denied).toMatchObject({ status: 403, body: { code: 17 } });
    const reserved = await maria.call('POST', `${BASE}/event`, { event: { type: 'message.new' } });
    expect(reserved).toMatchObject({ status: 400, body: { code: 4 } });
    await Promise.all([noahSocket.close(), eveSocket.close()]);
  });
});

describe('message edits and deletion', () => {
  it('updates own messages, refuses others, deletes soft, hard and for me, each with its event', async () => {
    await send(maria, 'e1', 'first draft');
    const socket = await openSocket(server, { token: noah.token });
    const upd = await maria.call('POST', '/messages/e1', { message: { text: 'final', priority: 'high' } });
    expect(upd.body).toMatchObject({ message: { id: 'e1', text: 'final', priority: 'high' } });
    expect(await socket.next('message.updated')).toMatchObject({ message: { id: 'e1', text: 'final' } });
    const partial = await maria.call('PUT', '/messages/e1', {
      set: { pinned: true, pin_expires: 3600 },
      unset: ['priority'],
    });
    expect(partial.body).toMatchObject({ message: { pinned: true } });
    expect((partial.body.message as Record<string, unknown>).priority).toBeUndefined();
    const foreign = await noah.call('POST', '/messages/e1', { message: { text: 'hijack' } });
    expect(foreign).toMatchObject({ status: 403, body: { code: 17 } });
    const tooLong = await maria.call('PUT', '/messages/e1', { set: { text: 'y'.repeat(5001) } });
    expect(tooLong.body).toMatchObject({ code: 20 });

    const soft = await maria.call('DELETE', '/messages/e1');
    expect(soft.body).toMatchObject({ message: { id: 'e1', type: 'deleted', text: '' } });
    expect(await socket.next('message.deleted')).toMatchObject({ message: { id: 'e1', type: 'deleted' } });

    await send(maria, 'e2', 'to erase');
    await maria.call('DELETE', '/messages/e2', undefined, { hard: 'true' });
    expect(await socket.next('message.deleted')).toMatchObject({ hard_delete: true, message: { id: 'e2' } });
    expect((await server.db.query("SELECT 1 FROM chat_messages WHERE id = 'e2'")).rowCount).toBe(0);

    await send(maria, 'e3', 'hide from noah');
    const forMe = await noah.call('DELETE', '/messages/e3', undefined, { delete_for_me: 'true' });
    expect(forMe.body).toMatchObject({ message: { id: 'e3', type: 'deleted', deleted_for_me: true } });
    const mariaView = await maria.call('GET', '/messages/e3');
    expect(mariaView.body).toMatchObject({ message: { type: 'regular', text: 'hide from noah' } });
    await socket.close();
  });
});

describe('reactions and threads', () => {
  it('adds, replaces and removes reactions with counts, groups and events', async () => {
    await send(maria, 'x1', 'react to me');
    const socket = await openSocket(server, { token: maria.token });
    const like = await noah.call('POST', '/messages/x1/reaction', { reaction: { type: 'like' } });
    expect(like.body).toMatchObject({
      message: {
        reaction_counts: { like: 1 },
        reaction_scores: { like: 1 },
        reaction_groups: { like: { count: 1 } },
      },
      reaction: { type: 'like', user_id: 'noah', score: 1 },
    });
    expect(await socket.next('reaction.new')).toMatchObject({
      reaction: { type: 'like' },
      message: { id: 'x1' },
    });
    await maria.call('POST', '/messages/x1/reaction', { reaction: { type: 'like', score: 3 } });
    const unique = await noah.call('POST', '/messages/x1/reaction', {
      reaction: { type: 'love' },
      enforce_unique: true,
    });
    expect(unique.body).toMatchObject({ message: { reaction_counts: { like: 1, love: 1 } } });
    const listed = await maria.call('GET', '/messages/x1/reactions');
    expect((listed.body.reactions as unknown[]).length).toBe(2);
    const own = await noah.call('GET', '/messages/x1');
    expect(
      (own.body.message as { own_reactions: Array<{ type: string }> }).own_reactions.map((r) => r.type),
    ).toEqual(['love']);
    const removed = await noah.call('DELETE', '/messages/x1/reaction/love');
    expect(removed.body).toMatchObject({ message: { reaction_counts: { like: 1 } } });
    const gone = await noah.call('DELETE', '/messages/x1/reaction/love');
    expect(gone).toMatchObject({ status: 404, body: { code: 16 } });
    const stranger = await eve.call('POST', '/messages/x1/reaction', { reaction: { type: 'like' } });
    expect(stranger).toMatchObject({ status: 403, body: { code: 17 } });
    await socket.close();
  });

  it('threads replies with reply_count and pages them', async () => {
    await send(maria, 't0', 'parent');
    for (let i = 1; i <= 4; i++) await send(noah, `t${i}`, `reply ${i}`, { parent_id: 't0' });
    const parent = await maria.call('GET', '/messages/t0');
    expect(parent.body).toMatchObject({ message: { reply_count: 4 } });
    const replies = await maria.call('GET', '/messages/t0/replies', undefined, { limit: '2' });
    expect((replies.body.messages as Array<{ id: string }>).map((m) => m.id)).toEqual(['t3', 't4']);
    const older = await maria.call('GET', '/messages/t0/replies', undefined, { limit: '2', id_lt: 't3' });
    expect((older.body.messages as Array<{ id: string; type: string }>).map((m) => m.id)).toEqual([
      't1',
      't2',
    ]);
    const nested = await send(noah, 't5', 'nested', { parent_id: 't1' });
    expect(nested.body).toMatchObject({ code: 21 });
    const main = await maria.call('POST', `${BASE}/query`, { messages: { limit: 100 } });
    expect((main.body.messages as Array<{ id: string }>).some((m) => m.id === 't1')).toBe(false);
  });
});

describe('channel updates and members', () => {
  it('freezes a channel (send capabilities removed), and announces members added and removed', async () => {
    await server.app.chat.server.getOrCreateChannel(
      'messaging',
      'ops',
      { members: ['maria', 'noah'] },
      'maria',
    );
    const noahSocket = await openSocket(server, { token: noah.token });
    const eveSocket = await openSocket(server, { token: eve.token });
    const frozenByMember = await noah.call('PATCH', '/channels/messaging/ops', { set: { frozen: true } });
    expect(frozenByMember).toMatchObject({ status: 403, body: { code: 17 } });
    await server.app.chat.server.updateChannelPartial('messaging:ops', { frozen: true });
    expect(await noahSocket.next('channel.updated')).toMatchObject({ channel: { frozen: true } });
    const changed = await noahSocket.next('capabilities.changed');
    expect(changed.own_capabilities).not.toContain('send-message');
    expect(changed.own_capabilities).toContain('read-events');
    const state = await noah.call('POST', '/channels/messaging/ops/query', {});
    expect((state.body.channel as { own_capabilities: string[] }).own_capabilities).not.toContain(
      'send-message',
    );
    const blocked = await noah.call('POST', '/channels/messaging/ops/message', { message: { text: 'hi' } });
    expect(blocked).toMatchObject({ status: 403, body: { code: 17 } });

    const added = await maria.call('POST', '/channels/messaging/ops', { add_members: ['eve'] });
    expect(added.status).toBe(200);
    expect(await eveSocket.next('notification.added_to_channel')).toMatchObject({ cid: 'messaging:ops' });
    expect(await noahSocket.next('member.added')).toMatchObject({ member: { user_id: 'eve' } });
    await server.app.chat.server.removeMembers('messaging:ops', ['eve']);
    expect(await eveSocket.next('notification.removed_from_channel')).toMatchObject({ cid: 'messaging:ops' });
    expect(await noahSocket.next('member.removed')).toMatchObject({ member: { user_id: 'eve' } });
    const after = await eve.call('POST', '/channels/messaging/ops/query', {});
    expect(after.status).toBe(403);
    await Promise.all([noahSocket.close(), eveSocket.close()]);
  });
});

describe('users', () => {
  it('queries users sharing a channel, by name autocomplete and id, and lets a user update only themselves', async () => {
    const byName = await maria.call('GET', '/users', undefined, {
      payload: JSON.stringify({ filter_conditions: { name: { $autocomplete: 'no' } } }),
    });
    expect((byName.body.users as Array<{ id: string }>).map((u) => u.id)).toEqual(['noah']);
    const hidden = await noah.call('GET', '/users', undefined, {
      payload: JSON.stringify({ filter_conditions: { id: { $in: ['eve', 'maria'] } } }),
    });
    expect((hidden.body.users as Array<{ id: string }>).map((u) => u.id)).toEqual(['maria']);
    const self = await maria.call('POST', '/users', {
      users: { maria: { id: 'maria', name: 'María López' } },
    });
    expect(self.body).toMatchObject({ users: { maria: { name: 'María López' } } });
    const other = await maria.call('POST', '/users', { users: [{ id: 'noah', name: 'x' }] });
    expect(other).toMatchObject({ status: 403, body: { code: 17 } });
  });
});

describe('sync', () => {
  it('returns the missed events; stale state plus events equals a fresh query', async () => {
    const stale = await noah.call('POST', `${BASE}/query`, { messages: { limit: 100 } });
    const since = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await send(maria, 's1', 'missed one');
    await send(maria, 's2', 'missed two');
    await maria.call('POST', '/messages/s1', { message: { text: 'missed one, edited' } });
    await maria.call('DELETE', '/messages/s2');
    const sync = await noah.call('POST', '/sync', {
      channel_cids: [CID, 'messaging:ops'],
      last_sync_at: since,
    });
    const events = sync.body.events as Array<{ type: string; message?: { id: string } }>;
    expect(events.map((e) => e.type)).toEqual([
      'message.new',
      'message.new',
      'message.updated',
      'message.deleted',
    ]);

    // Apply the events to the stale list, as the SDK does, and compare with a fresh query.
    const list = new Map((stale.body.messages as Array<{ id: string }>).map((m) => [m.id, m]));
    for (const e of events) if (e.message) list.set(e.message.id, e.message);
    const fresh = await noah.call('POST', `${BASE}/query`, { messages: { limit: 100 } });
    const strip = (m: Record<string, unknown>) => ({
      id: m.id,
      text: m.text,
      type: m.type,
      updated_at: m.updated_at,
    });
    expect([...list.values()].map((m) => strip(m as Record<string, unknown>))).toEqual(
      (fresh.body.messages as Array<Record<string, unknown>>).map(strip),
    );
    const outsider = await eve.call('POST', '/sync', { channel_cids: [CID], last_sync_at: since });
    expect(outsider.body.events).toEqual([]);
  });
});
