import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, type ChatUserClient } from './chat-support.js';

/**
 * Read paths that wrote the read rule out by hand and missed part of it (policy/read-access now decides them):
 * each case failed before. The full positions x endpoints x events matrix is chat-authz-matrix.test.ts.
 */
let server: TestServer;
let ana: ChatUserClient;
let ben: ChatUserClient;
let cleo: ChatUserClient;

beforeAll(async () => {
  // Users make the channels and invites here (the chat's own rules); the read rule is the same under the product's.
  server = await startTestServer({ database: 'postgres', productChatRules: false });
  ana = await chatUser(server, 'ana');
  ben = await chatUser(server, 'ben');
  cleo = await chatUser(server, 'cleo');
});

afterAll(async () => {
  await server?.close();
});

const send = (who: ChatUserClient, id: string, text: string, extra: Record<string, unknown> = {}) =>
  who.call('POST', `/channels/messaging/${id}/message`, { message: { text, ...extra } });

async function threadIn(id: string): Promise<string> {
  await ana.call('POST', `/channels/messaging/${id}/query`, { data: { members: ['ana', 'ben', 'cleo'] } });
  const parent = await send(ana, id, `parent in ${id}`);
  const parentId = (parent.body.message as { id: string }).id;
  await send(ben, id, 'my reply', { parent_id: parentId });
  await send(ana, id, 'a reply for ben to read', { parent_id: parentId });
  return parentId;
}

describe('the read rule on paths that restated it', () => {
  it('a deleted channel’s threads are neither listed nor counted unread', async () => {
    const parentId = await threadIn('gone');
    const before = await ben.call<{ total_unread_threads_count: number }>('GET', '/unread');
    expect(before.body.total_unread_threads_count).toBe(1);
    const listed = await ben.call<{ threads: Array<{ parent_message_id: string }> }>('POST', '/threads', {});
    expect(listed.body.threads.map((t) => t.parent_message_id)).toEqual([parentId]);

    expect((await ana.call('DELETE', '/channels/messaging/gone')).status).toBe(200);
    const after = await ben.call<{ total_unread_threads_count: number; threads: unknown[] }>(
      'GET',
      '/unread',
    );
    expect(after.body).toMatchObject({ total_unread_threads_count: 0, threads: [] });
    const none = await ben.call<{ threads: unknown[] }>('POST', '/threads', {});
    expect(none.body.threads).toEqual([]);
  });

  it('a thread whose parent lies before the viewer’s cleared history is not shown to them', async () => {
    const parentId = await threadIn('cleared');
    await cleo.call('POST', '/channels/messaging/cleared/hide', { clear_history: true });
    expect((await cleo.call('GET', `/threads/${parentId}`)).body).toMatchObject({ code: 16 });
    // The others still see it.
    expect((await ben.call('GET', `/threads/${parentId}`)).status).toBe(200);
  });

  it('sync gives a member who joined late nothing from before they joined', async () => {
    await ana.call('POST', '/channels/messaging/late/query', { data: { members: ['ana', 'ben'] } });
    const since = new Date(Date.now() - 60_000).toISOString();
    await send(ana, 'late', 'said before cleo came');
    await new Promise((r) => setTimeout(r, 20));
    await ana.call('POST', '/channels/messaging/late', { add_members: ['cleo'] });
    await send(ana, 'late', 'said after cleo came');
    const sync = await cleo.call<{ events: Array<{ type: string; message?: { text: string } }> }>(
      'POST',
      '/sync',
      { channel_cids: ['messaging:late'], last_sync_at: since },
    );
    const texts = sync.body.events.flatMap((e) => (e.type === 'message.new' ? [e.message?.text] : []));
    expect(texts).toEqual(['said after cleo came']);
  });

  it('a banned member does not get the channel listed by asking for invites', async () => {
    const dan = await chatUser(server, 'dan');
    await ana.call('POST', '/channels/messaging/invited/query', { data: { members: ['ana'] } });
    await ana.call('POST', '/channels/messaging/invited', { invites: ['dan'] });
    await dan.call('POST', '/channels/messaging/invited', { accept_invite: true });
    const listed = await dan.call<{ channels: unknown[] }>('POST', '/channels', {
      filter_conditions: { invite: 'accepted' },
    });
    expect(listed.body.channels).toHaveLength(1);
    // No endpoint bans yet: set it as a moderation tool would.
    await server.db.query(
      `UPDATE chat_members SET banned = true WHERE cid = 'messaging:invited' AND user_id = 'dan'`,
    );
    const banned = await dan.call<{ channels: unknown[] }>('POST', '/channels', {
      filter_conditions: { invite: 'accepted' },
    });
    expect(banned.body.channels).toEqual([]);
  });
});
