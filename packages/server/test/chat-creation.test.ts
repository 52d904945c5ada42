import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctId } from '../src/chat/actions/channel-create.js';
import { signChatToken } from '../src/chat/auth.js';
import { chatCall, chatUser, type ChatUserClient } from './chat-support.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Issue 13 §2 in chat itself (chat's built-in rules, no product): a user creates channels only as one of their
 * members, never under a distinct-members id, and a distinct-members channel is handed back only to exactly its
 * members when one of them (or the server) created it. `create-channel` is a rule resource a type may deny.
 */
let server: TestServer;
let ann: ChatUserClient;
let ben: ChatUserClient;
let eve: ChatUserClient;

beforeAll(async () => {
  server = await startTestServer({ productChatRules: false });
  ann = await chatUser(server, 'ann');
  ben = await chatUser(server, 'ben');
  eve = await chatUser(server, 'eve');
});
afterAll(async () => {
  await server?.close();
});

const cidOf = (body: Record<string, unknown>) => (body.channel as { cid: string }).cid;
const membersOf = async (cid: string) =>
  (
    await server.db.query<{ user_id: string }>(
      'SELECT user_id FROM chat_members WHERE cid = $1 ORDER BY user_id',
      [cid],
    )
  ).rows.map((r) => r.user_id);

describe('channel creation (issue 13 §2)', () => {
  it('refuses a user creating a channel under a distinct-members id (squatting)', async () => {
    const { id } = distinctId(['ann', 'ben']);
    const squat = await eve.call('POST', `/channels/team/${id}/query`, { data: { members: ['ann', 'ben'] } });
    expect(squat).toMatchObject({ status: 400, body: { code: 4 } });
    const rows = await server.db.query('SELECT 1 FROM chat_channels WHERE id = $1', [id]);
    expect(rows.rows).toEqual([]);
  });

  it('never hands back a distinct channel whose members are not exactly the asked ones', async () => {
    // A channel at the id the member list hashes to, with one more member (as a squat from before the fix).
    const { id } = distinctId(['ann', 'ben']);
    await server.app.chat.server.getOrCreateChannel('team', id, { members: ['ann', 'ben', 'eve'] }, 'eve');
    const mine = await ann.call('POST', '/channels/team/query', { data: { members: ['ben'] } });
    expect(mine.status).toBe(200);
    const cid = cidOf(mine.body);
    expect(cid).not.toBe(`team:${id}`);
    expect(await membersOf(cid)).toEqual(['ann', 'ben']);
    expect(mine.body.channel).toMatchObject({ created_by: { id: 'ann' } });
    // Ben asking for the same two gets the same channel; Eve asking with them gets another one.
    const same = await ben.call('POST', '/channels/team/query', { data: { members: ['ann'] } });
    expect(cidOf(same.body)).toBe(cid);
    const three = await eve.call('POST', '/channels/team/query', { data: { members: ['ann', 'ben'] } });
    expect(cidOf(three.body)).not.toBe(cid);
    expect(cidOf(three.body)).not.toBe(`team:${id}`);
  });

  it('stops handing back a distinct channel once its members changed', async () => {
    const first = await ann.call('POST', '/channels/team/query', { data: { members: ['eve'] } });
    const cid = cidOf(first.body);
    const [, id] = cid.split(':');
    const added = await ann.call('POST', `/channels/team/${id}`, { add_members: ['ben'] });
    expect(added.status).toBe(200);
    const again = await eve.call('POST', '/channels/team/query', { data: { members: ['ann'] } });
    expect(again.status).toBe(200);
    expect(cidOf(again.body)).not.toBe(cid);
    expect(await membersOf(cidOf(again.body))).toEqual(['ann', 'eve']);
  });

  it('lets a type deny create-channel by rule; the server still creates there', async () => {
    const token = await signChatToken(server.config, { server: true });
    const admin = (method: string, path: string, body: unknown) =>
      chatCall(server, method, path, { token, body });
    expect((await ann.call('POST', '/channeltypes', { name: 'closed' })).status).toBe(403);
    expect((await admin('POST', '/channeltypes', { name: 'closed' })).status).toBe(200);
    const rule = await admin('POST', '/permissions', {
      id: 'closed-no-create',
      name: 'No user channels',
      action: 'Deny',
      priority: 100,
      resources: ['create-channel'],
      roles: ['*'],
      channel_type: 'closed',
    });
    expect(rule.status).toBe(200);
    const refused = await ann.call('POST', '/channels/closed/room/query', { data: { members: ['ben'] } });
    expect(refused).toMatchObject({ status: 403, body: { code: 17 } });
    const open = await ann.call('POST', '/channels/team/room/query', { data: { members: ['ben'] } });
    expect(open.status).toBe(200);
    const made = await server.app.chat.server.getOrCreateChannel(
      'closed',
      'room',
      { members: ['ann', 'ben'] },
      'ann',
    );
    expect(made.cid).toBe('closed:room');
  });
});
