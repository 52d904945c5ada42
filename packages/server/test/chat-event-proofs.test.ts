import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, type ChatUserClient } from './chat-support.js';
import { proofClient } from './chat-proof-support.js';

/** Each event family proven by "stale state + the events since = a fresh query", on PostgreSQL and real sockets. */
let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;
let olga: ChatUserClient;

beforeAll(async () => {
  server = await startTestServer({ database: 'postgres', productChatRules: false });
  maria = await chatUser(server, 'maria');
  noah = await chatUser(server, 'noah');
  olga = await chatUser(server, 'olga');
  await chatUser(server, 'pia');
});

afterAll(async () => {
  await server?.close();
});

const create = async (id: string, members: string[]) => {
  const res = await maria.call('POST', `/channels/messaging/${id}/query`, { data: { members } });
  expect(res.status).toBe(200);
};

describe('event proofs', () => {
  it('member events: added, removed, updated, invites, moderators', async () => {
    await create('p-members', ['maria']);
    const client = await proofClient(server, maria, 'messaging:p-members');
    await maria.call('POST', '/channels/messaging/p-members', { add_members: ['noah', 'pia'] });
    await maria.call('POST', '/channels/messaging/p-members', { invites: ['olga'] });
    await olga.call('POST', '/channels/messaging/p-members', { accept_invite: true });
    await maria.call('POST', '/channels/messaging/p-members', { add_moderators: ['noah'] });
    await maria.call('POST', '/channels/messaging/p-members', { remove_members: ['pia'] });
    const fresh = await client.prove(maria);
    expect(Object.keys(fresh.members).sort()).toEqual(['maria', 'noah', 'olga']);
    expect(fresh.members.noah).toMatchObject({ channel_role: 'channel_moderator' });
    await client.socket.close();
  });

  it('channel events: updated, frozen, hidden and visible, truncated', async () => {
    await create('p-channel', ['maria', 'noah']);
    await noah.call('POST', '/channels/messaging/p-channel/message', { message: { text: 'before' } });
    const client = await proofClient(server, maria, 'messaging:p-channel');
    await maria.call('PATCH', '/channels/messaging/p-channel', { set: { name: 'Case 12', topic: 'rent' } });
    await maria.call('PATCH', '/channels/messaging/p-channel', { set: { frozen: true } });
    await maria.call('POST', '/channels/messaging/p-channel/hide', {});
    await maria.call('PATCH', '/channels/messaging/p-channel', { unset: ['topic'], set: { frozen: false } });
    await maria.call('POST', '/channels/messaging/p-channel/show', {});
    await maria.call('POST', '/channels/messaging/p-channel/truncate', {});
    await noah.call('POST', '/channels/messaging/p-channel/message', { message: { text: 'after' } });
    const fresh = await client.prove(maria);
    expect(fresh.channel).toMatchObject({ name: 'Case 12', frozen: false, hidden: false });
    expect(fresh.messages.map((m) => m.text)).toEqual(['after']);
    await client.socket.close();
  });

  it('thread events: replies, parent reply counts, edits and deletes, thread.updated', async () => {
    await create('p-threads', ['maria', 'noah']);
    await maria.call('POST', '/channels/messaging/p-threads/message', {
      message: { id: 'pt-1', text: 'parent' },
    });
    const client = await proofClient(server, maria, 'messaging:p-threads');
    await noah.call('POST', '/channels/messaging/p-threads/message', {
      message: { id: 'pt-r1', text: 'reply', parent_id: 'pt-1' },
    });
    await noah.call('POST', '/channels/messaging/p-threads/message', {
      message: { id: 'pt-r2', text: 'also in channel', parent_id: 'pt-1', show_in_channel: true },
    });
    await maria.call('PATCH', '/threads/pt-1', { set: { title: 'Rent' } });
    await noah.call('PUT', '/messages/pt-r2', { set: { text: 'edited' } });
    await maria.call('POST', '/channels/messaging/p-threads/message', {
      message: { id: 'pt-2', text: 'gone' },
    });
    await maria.call('DELETE', '/messages/pt-2');
    const events = await client.eventsSince(maria);
    const thread = events.filter((e) => e.type === 'thread.updated').at(-1)?.thread as Record<
      string,
      unknown
    >;
    const fresh = await client.prove(maria);
    expect(fresh.messages.map((m) => [m.id, m.type, m.reply_count])).toEqual([
      ['pt-1', 'regular', 2],
      ['pt-r2', 'reply', 0],
      ['pt-2', 'deleted', 0],
    ]);
    const freshThread = await maria.call<{ thread: Record<string, unknown> }>('GET', '/threads/pt-1');
    expect({ title: thread.title, reply_count: thread.reply_count }).toEqual({
      title: freshThread.body.thread.title,
      reply_count: freshThread.body.thread.reply_count,
    });
    await client.socket.close();
  });

  it('read events: message.read of others, the viewer’s own mark unread, unread counts', async () => {
    await create('p-read', ['maria', 'noah', 'olga']);
    const client = await proofClient(server, maria, 'messaging:p-read');
    await noah.call('POST', '/channels/messaging/p-read/message', { message: { id: 'pr-1', text: 'one' } });
    await noah.call('POST', '/channels/messaging/p-read/message', { message: { id: 'pr-2', text: 'two' } });
    await olga.call('POST', '/channels/messaging/p-read/message', { message: { id: 'pr-3', text: 'three' } });
    await noah.call('POST', '/channels/messaging/p-read/read', {});
    await maria.call('POST', '/channels/messaging/p-read/read', {});
    await maria.call('POST', '/channels/messaging/p-read/unread', { message_id: 'pr-2' });
    const fresh = await client.prove(maria);
    expect(fresh.read.maria).toEqual({ last_read_message_id: 'pr-1', unread_messages: 2 });
    expect(fresh.read.noah).toEqual({ last_read_message_id: 'pr-3', unread_messages: 0 });
    expect(fresh.read.olga).toEqual({ last_read_message_id: 'pr-3', unread_messages: 0 });
    await client.socket.close();
  });
});
