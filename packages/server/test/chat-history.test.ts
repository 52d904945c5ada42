import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, type ChatUserClient } from './chat-support.js';

/** `POST /chat/messages/history`: every text or attachment edit keeps the version it replaced. */
let server: TestServer;
let maria: ChatUserClient;
let chloe: ChatUserClient;
let noah: ChatUserClient;

type Entry = {
  message_id: string;
  text: string;
  attachments: unknown[];
  message_updated_by_id?: string;
  message_updated_by?: { id: string };
  message_updated_at: string;
};
type History = { message_history: Entry[]; next?: string; prev?: string; code?: number };

const history = (who: ChatUserClient, id: string, extra: Record<string, unknown> = {}) =>
  who.call<History>('POST', '/messages/history', { filter: { message_id: { $eq: id } }, ...extra });

async function send(who: ChatUserClient, channel: string, id: string, text: string) {
  const sent = await who.call('POST', `/channels/messaging/${channel}/message`, { message: { id, text } });
  expect(sent.status).toBe(200);
}

beforeAll(async () => {
  server = await startTestServer({ database: 'postgres', productChatRules: false });
  maria = await chatUser(server, 'maria');
  chloe = await chatUser(server, 'chloe');
  noah = await chatUser(server, 'noah');
  await maria.call('POST', '/channels/messaging/h/query', { data: { members: ['maria', 'chloe'] } });
  // Chloe may edit anyone's message in this test (a moderator).
  await maria.call('POST', '/channels/messaging/h', { add_moderators: ['chloe'] });
});

afterAll(async () => {
  await server?.close();
});

describe('message history', () => {
  it('keeps each replaced version, with who made it and when; pins and custom data are no versions', async () => {
    await send(maria, 'h', 'm1', 'first');
    const sent = await maria.call<{ message: { created_at: string } }>('GET', '/messages/m1');
    expect((await history(maria, 'm1')).body).toEqual({ message_history: [] });

    const edited = await maria.call('POST', '/messages/m1', { message: { text: 'second' } });
    expect(edited.status).toBe(200);
    await maria.call('PUT', '/messages/m1', { set: { pinned: true, colour: 'blue' } });
    const byChloe = await chloe.call<{ message: { message_text_updated_at: string } }>(
      'PUT',
      '/messages/m1',
      { set: { text: 'third', attachments: [{ type: 'file', title: 'plan.pdf' }] } },
    );
    expect(byChloe.status).toBe(200);
    const second = await maria.call<{ message: { updated_at: string } }>('GET', '/messages/m1');
    await maria.call('PUT', '/messages/m1', { set: { attachments: [] } });

    const all = await history(chloe, 'm1');
    expect(all.status).toBe(200);
    const versions = all.body.message_history;
    // Newest first: third (by chloe), second (by maria), first (by maria, at send time).
    expect(versions.map((v) => v.text)).toEqual(['third', 'second', 'first']);
    expect(versions.map((v) => v.message_updated_by_id)).toEqual(['chloe', 'maria', 'maria']);
    expect(versions[0]).toMatchObject({
      message_id: 'm1',
      attachments: [{ type: 'file', title: 'plan.pdf' }],
      message_updated_by: { id: 'chloe' },
      message_updated_at: byChloe.body.message.message_text_updated_at,
    });
    expect(versions[2]).toMatchObject({ attachments: [], message_updated_at: sent.body.message.created_at });
    expect(Date.parse(versions[1]?.message_updated_at ?? '')).toBeLessThanOrEqual(
      Date.parse(second.body.message.updated_at),
    );
    expect(all.body.next).toBeUndefined();
    expect(all.body.prev).toBeUndefined();

    const oldest = await history(maria, 'm1', { sort: [{ field: 'message_updated_at', direction: 1 }] });
    expect(oldest.body.message_history.map((v) => v.text)).toEqual(['first', 'second', 'third']);
  });

  it('pages with next and prev keyset cursors, stable while versions are added', async () => {
    await send(maria, 'h', 'p1', 'v0');
    for (let i = 1; i <= 7; i++) await maria.call('PUT', '/messages/p1', { set: { text: `v${i}` } });
    // Equal version times must still page without gaps or repeats.
    await server.db.query(
      "UPDATE chat_message_history SET message_updated_at = date_trunc('second', now()) WHERE message_id = 'p1'",
    );
    const asc = { sort: [{ field: 'message_updated_at', direction: 1 }], limit: 3 };
    const one = (await history(maria, 'p1', asc)).body;
    expect(one.message_history.map((v) => v.text)).toEqual(['v0', 'v1', 'v2']);
    expect(one.prev).toBeUndefined();
    await maria.call('PUT', '/messages/p1', { set: { text: 'v8' } });
    const two = (await history(maria, 'p1', { ...asc, next: one.next })).body;
    expect(two.message_history.map((v) => v.text)).toEqual(['v3', 'v4', 'v5']);
    const three = (await history(maria, 'p1', { ...asc, next: two.next })).body;
    expect(three.message_history.map((v) => v.text)).toEqual(['v6', 'v7']);
    expect(three.next).toBeUndefined();
    const back = (await history(maria, 'p1', { ...asc, prev: three.prev })).body;
    expect(back.message_history.map((v) => v.text)).toEqual(['v3', 'v4', 'v5']);
    const first = (await history(maria, 'p1', { ...asc, prev: back.prev })).body;
    expect(first.message_history.map((v) => v.text)).toEqual(['v0', 'v1', 'v2']);
    expect(first.prev).toBeUndefined();
    expect(first.next).toBeDefined();

    // A cursor continues only the sort it came from; a prev cursor is no next cursor.
    const wrongSort = await history(maria, 'p1', { limit: 3, next: one.next });
    expect(wrongSort.body).toMatchObject({ code: 4 });
    const swapped = await history(maria, 'p1', { ...asc, next: three.prev });
    expect(swapped.body).toMatchObject({ code: 4 });
  });

  it('validates the request', async () => {
    expect((await maria.call('POST', '/messages/history', {})).body).toMatchObject({ code: 4 });
    expect((await history(maria, 'm1', { limit: 301 })).body).toMatchObject({ code: 4 });
    expect(
      (await maria.call('POST', '/messages/history', { filter: { message_id: 'm1' } })).body,
    ).toMatchObject({ code: 4 });
    expect((await history(maria, 'm1', { limit: 300 })).status).toBe(200);
  });

  it('answers 16 for unknown messages and 17 outside the channel', async () => {
    const unknown = await history(maria, 'nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 16 });
    const outsider = await history(noah, 'm1');
    expect(outsider.status).toBe(403);
    expect(outsider.body).toMatchObject({ code: 17 });
  });

  it('shows no old versions of deleted messages, hard deleted ones are gone with their versions', async () => {
    await send(maria, 'h', 'd1', 'secret');
    await maria.call('PUT', '/messages/d1', { set: { text: 'redacted' } });
    expect((await history(chloe, 'd1')).body.message_history).toHaveLength(1);

    await maria.call('DELETE', '/messages/d1');
    expect((await history(chloe, 'd1')).body).toEqual({ message_history: [] });
    expect((await chloe.call('POST', '/messages/d1/undelete')).status).toBe(200);
    expect((await history(chloe, 'd1')).body.message_history.map((v) => v.text)).toEqual(['secret']);

    await chloe.call('DELETE', '/messages/d1', undefined, { delete_for_me: 'true' });
    expect((await history(chloe, 'd1')).body).toEqual({ message_history: [] });
    expect((await history(maria, 'd1')).body.message_history).toHaveLength(1);

    await maria.call('DELETE', '/messages/d1', undefined, { hard: 'true' });
    expect((await history(maria, 'd1')).body).toMatchObject({ code: 16 });
    const left = await server.db.query("SELECT 1 FROM chat_message_history WHERE message_id = 'd1'");
    expect(left.rows).toHaveLength(0);
  });

  it('hides the versions of messages before a cleared history or a truncation', async () => {
    await maria.call('POST', '/channels/messaging/c/query', { data: { members: ['maria', 'chloe'] } });
    await send(maria, 'c', 'c1', 'before');
    await maria.call('PUT', '/messages/c1', { set: { text: 'before, edited' } });
    await chloe.call('POST', '/channels/messaging/c/hide', { clear_history: true });
    expect((await history(chloe, 'c1')).body).toMatchObject({ code: 16 });
    expect((await history(maria, 'c1')).body.message_history).toHaveLength(1);

    await maria.call('POST', '/channels/messaging/c/truncate', {});
    expect((await history(maria, 'c1')).body).toMatchObject({ code: 16 });
  });
});

describe('message history and reaction query on PGlite', () => {
  let lite: TestServer;
  beforeAll(async () => {
    lite = await startTestServer({ database: 'pglite', productChatRules: false });
  });
  afterAll(async () => {
    await lite?.close();
  });

  it('keeps versions and pages reactions', async () => {
    const ana = await chatUser(lite, 'ana');
    await ana.call('POST', '/channels/messaging/l/query', { data: { members: ['ana'] } });
    await send(ana, 'l', 'l1', 'one');
    await ana.call('PUT', '/messages/l1', { set: { text: 'two' } });
    await ana.call('POST', '/messages/l1', { message: { text: 'three' } });
    const versions = await history(ana, 'l1', { limit: 1 });
    expect(versions.body.message_history.map((v) => v.text)).toEqual(['two']);
    const older = await history(ana, 'l1', { limit: 1, next: versions.body.next });
    expect(older.body.message_history.map((v) => v.text)).toEqual(['one']);
    expect(older.body.prev).toBeDefined();

    for (const type of ['like', 'love'])
      await ana.call('POST', '/messages/l1/reaction', { reaction: { type } });
    const page = await ana.call<{ reactions: Array<{ type: string }>; next?: string }>(
      'POST',
      '/messages/l1/reactions',
      { limit: 1 },
    );
    const rest = await ana.call<{ reactions: Array<{ type: string }>; next?: string }>(
      'POST',
      '/messages/l1/reactions',
      { limit: 1, next: page.body.next },
    );
    expect([...page.body.reactions, ...rest.body.reactions].map((r) => r.type).sort()).toEqual([
      'like',
      'love',
    ]);
    expect(rest.body.next).toBeUndefined();
  });
});
