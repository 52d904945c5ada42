import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_REMOVED_TEXT } from '@caseroom/protocol';
import { distinctId } from '../src/chat/actions/channel-create.js';
import type { DemoSeed } from '../src/product/index.js';
import { chatCall, openSocket, type Reply } from './chat-support.js';
import { call, get, ok, signUp, type Person } from './domain-support.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Issue 13 §2-§3 on the product's chats, through HTTP and sockets with the product's chat rules in force: channels
 * are created by those entitled to them, guests never take an existing id, and nobody rewrites another person's
 * words (moderators remove, visibly, in the history and the audit log).
 */
describe('product chats: creation and removal (issue 13 §2-§3)', () => {
  let server: TestServer;
  let seed: DemoSeed;
  const people: Record<string, Person> = {};
  const tokens: Record<string, string> = {};

  /** Calls the chat API as a demo person, with the chat token the product hands out. */
  const as = <T = Record<string, unknown>>(
    who: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Reply<T>> =>
    chatCall<T>(server, method, path, { token: tokens[who] ?? '', ...(body !== undefined ? { body } : {}) });
  const uid = (who: string) => seed.users[who as keyof DemoSeed['users']];
  const channelsOf = async (userId: string) =>
    (
      await server.db.query<{ cid: string }>('SELECT cid FROM chat_members WHERE user_id = $1 ORDER BY cid', [
        userId,
      ])
    ).rows.map((r) => r.cid);

  beforeAll(async () => {
    server = await startTestServer({ env: { SEED_DEMO: '1' } });
    seed = await server.app.product.seedDemo();
    for (const key of ['admin', 'maria', 'noah', 'chloe', 'gary']) {
      const res = await server.app.product.auth.api.signInEmail({
        body: { email: `${key}@caseroom.test`, password: 'caseroom-demo' },
      });
      people[key] = { uid: res.user.id, token: res.token, email: `${key}@caseroom.test` };
      tokens[key] = await ok<string>(server, people[key], 'chat-getToken', {});
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a client squatting the distinct id of two colleagues; startChat gives the starter a fresh channel', async () => {
    const { id } = distinctId([uid('maria'), uid('noah')]);
    const squat = await as('chloe', 'POST', `/channels/messaging/${id}/query`, {
      data: { members: [uid('maria'), uid('noah')] },
    });
    expect(squat).toMatchObject({ status: 403, body: { code: 17 } });
    const byList = await as('chloe', 'POST', '/channels/messaging/query', {
      data: { members: [uid('maria'), uid('noah')] },
    });
    expect(byList).toMatchObject({ status: 403, body: { code: 17 } });
    expect(await channelsOf(uid('noah'))).not.toContain(`messaging:${id}`);

    // A channel at that id that is not exactly theirs (here put there by the server, as one left from before the
    // fix would be) is never handed back by startChat.
    await server.app.chat.server.getOrCreateChannel(
      'messaging',
      id,
      { members: [uid('chloe'), uid('maria'), uid('noah')], team: seed.organizationId },
      uid('chloe'),
    );
    const started = await ok<{ cid: string }>(server, people.maria!, 'chat-startChat', {
      contacts: [uid('maria'), uid('noah')],
    });
    expect(started.cid).not.toBe(`messaging:${id}`);
    const [channel] = await server.app.chat.server.queryChannels({ cid: started.cid });
    expect(channel).toMatchObject({ member_count: 2, team: seed.organizationId });
    const creator = await server.db.query('SELECT created_by_id FROM chat_channels WHERE cid = $1', [
      started.cid,
    ]);
    expect(creator.rows).toEqual([{ created_by_id: uid('maria') }]);
    const members = await server.db.query<{ user_id: string }>(
      'SELECT user_id FROM chat_members WHERE cid = $1 ORDER BY user_id',
      [started.cid],
    );
    expect(members.rows.map((r) => r.user_id)).toEqual([uid('maria'), uid('noah')].sort());
    // Started again (by the other one): the same channel.
    const again = await ok<{ cid: string }>(server, people.noah!, 'chat-startChat', {
      contacts: [uid('noah'), uid('maria')],
    });
    expect(again.cid).toBe(started.cid);
  });

  it('refuses raw channel creation on the product types to clients, guests, team members and /chat/guest identities', async () => {
    const visitor = await chatCall(server, 'POST', '/guest', {
      body: { user: { id: `visitor-${Date.now()}` } },
    });
    expect(visitor.status).toBe(200);
    tokens.visitor = visitor.body.access_token as string;
    for (const who of ['chloe', 'gary', 'maria', 'admin', 'visitor']) {
      for (const type of ['messaging', 'team']) {
        const res = await as(who, 'POST', `/channels/${type}/spam-${who}/query`, {
          data: { members: [uid('noah')] },
        });
        expect({ who, type, res }).toMatchObject({ res: { status: 403, body: { code: 17 } } });
        const sent = await as(who, 'POST', `/channels/${type}/spam-${who}/message`, {
          message: { text: 'hello' },
        });
        expect({ who, type, status: sent.status }).toMatchObject({ status: 404 });
      }
    }
    const spam = await server.db.query("SELECT 1 FROM chat_channels WHERE id LIKE 'spam-%'");
    expect(spam.rows).toEqual([]);
  });

  it('refuses adding or inviting an arbitrary user to a product chat, even for its moderator', async () => {
    const [, id] = seed.directChannelCid.split(':');
    const add = await as('maria', 'POST', `/channels/messaging/${id}`, { add_members: [uid('noah')] });
    expect(add).toMatchObject({ status: 403, body: { code: 17 } });
    const invite = await as('maria', 'POST', `/channels/messaging/${id}`, { invites: [uid('gary')] });
    expect(invite).toMatchObject({ status: 403, body: { code: 17 } });
    expect(await channelsOf(uid('noah'))).not.toContain(seed.directChannelCid);
    expect(await channelsOf(uid('gary'))).not.toContain(seed.directChannelCid);
  });

  it('never issues a guest token for an existing id, nor for the id of a product account', async () => {
    const id = `visitor-again-${Date.now()}`;
    expect((await chatCall(server, 'POST', '/guest', { body: { user: { id } } })).status).toBe(200);
    const again = await chatCall(server, 'POST', '/guest', { body: { user: { id } } });
    expect(again).toMatchObject({ status: 403, body: { code: 17 } });
    expect(again.body.access_token).toBeUndefined();

    // A product account that never opened chat has no chat user yet: its id is still not a guest's to take.
    const fresh = await signUp(server, 'fresh');
    const claim = await chatCall(server, 'POST', '/guest', { body: { user: { id: fresh.uid } } });
    expect(claim).toMatchObject({ status: 403, body: { code: 17 } });
    const rows = await server.db.query('SELECT 1 FROM chat_users WHERE id = $1', [fresh.uid]);
    expect(rows.rows).toEqual([]);
  });

  it("refuses a moderator editing a client's message in a product chat; another type keeps update-any-message", async () => {
    const [, id] = seed.directChannelCid.split(':');
    const sent = await as<{ message: { id: string } }>('chloe', 'POST', `/channels/messaging/${id}/message`, {
      message: { text: 'I still need help with housing.' },
    });
    expect(sent.status).toBe(200);
    const edit = await as('maria', 'PUT', `/messages/${sent.body.message.id}`, {
      set: { text: 'I no longer need help with housing.' },
    });
    expect(edit).toMatchObject({ status: 403, body: { code: 17 } });
    const state = await as<{
      channel: { own_capabilities: string[] };
      messages: Array<{ id: string; text: string }>;
    }>('maria', 'POST', `/channels/messaging/${id}/query`, { state: true });
    expect(state.body.channel.own_capabilities).not.toContain('update-any-message');
    expect(state.body.channel.own_capabilities).toContain('delete-any-message');
    expect(state.body.messages.find((m) => m.id === sent.body.message.id)?.text).toBe(
      'I still need help with housing.',
    );

    // A channel type that wants it keeps the built-in rule: a moderator there may edit anyone's message.
    await server.app.chat.server.getOrCreateChannel(
      'team',
      'staff-room',
      { members: [uid('maria'), uid('noah')] },
      uid('noah'),
    );
    await server.app.chat.server.addModerators('team:staff-room', [uid('maria')]);
    const other = await as<{ message: { id: string } }>('noah', 'POST', '/channels/team/staff-room/message', {
      message: { text: 'Meeting at 10' },
    });
    const fixed = await as('maria', 'PUT', `/messages/${other.body.message.id}`, {
      set: { text: 'Meeting at 11' },
    });
    expect(fixed).toMatchObject({ status: 200, body: { message: { text: 'Meeting at 11' } } });
  });

  it('shows a moderator removal to every member (socket and pages), in the history and in the audit log', async () => {
    const [, id] = seed.groupChannelCid.split(':');
    const sent = await as<{ message: { id: string } }>('chloe', 'POST', `/channels/messaging/${id}/message`, {
      message: { text: 'Please call me about the flat.' },
    });
    const messageId = sent.body.message.id;
    // Never erased without a trace: a hard delete of someone else's message is the server's alone.
    const erase = await chatCall(server, 'DELETE', `/messages/${messageId}`, {
      token: tokens.maria ?? '',
      query: { hard: 'true' },
    });
    expect(erase).toMatchObject({ status: 403, body: { code: 17 } });
    const noah = await openSocket(server, { token: tokens.noah! });
    try {
      const removed = await as('maria', 'DELETE', `/messages/${messageId}`);
      expect(removed.status).toBe(200);
      const event = await noah.next('message.deleted');
      const shown = {
        id: messageId,
        type: 'deleted',
        text: MESSAGE_REMOVED_TEXT,
        moderation_details: { action: 'removed' },
      };
      expect(event).toMatchObject({ message: shown });
      expect(JSON.stringify(event)).not.toContain('flat');
    } finally {
      await noah.close();
    }
    const page = await as<{ messages: Array<Record<string, unknown>> }>(
      'noah',
      'GET',
      `/channels/messaging/${id}/messages?ids=${encodeURIComponent(messageId)}`,
    );
    expect(page.body.messages).toEqual([
      expect.objectContaining({
        id: messageId,
        text: MESSAGE_REMOVED_TEXT,
        moderation_details: { action: 'removed' },
      }),
    ]);
    const state = await as<{ messages: Array<Record<string, unknown>> }>(
      'chloe',
      'POST',
      `/channels/messaging/${id}/query`,
      { state: true },
    );
    expect(state.body.messages.find((m) => m.id === messageId)).toMatchObject({ text: MESSAGE_REMOVED_TEXT });

    const history = await as<{ message_history: Array<Record<string, unknown>> }>(
      'noah',
      'POST',
      '/messages/history',
      { filter: { message_id: { $eq: messageId } } },
    );
    expect(history.body.message_history).toEqual([
      expect.objectContaining({
        message_id: messageId,
        text: MESSAGE_REMOVED_TEXT,
        message_updated_by_id: uid('maria'),
        removed_by_moderator: true,
      }),
    ]);
    expect(JSON.stringify(history.body)).not.toContain('flat');

    const audit = await get(server, people.admin, `/api/organizations/${seed.organizationId}/audit`);
    const entries = (audit.body as { entries: Array<Record<string, unknown>> }).entries;
    expect(entries.find((e) => e.action === 'chat.message.remove')).toMatchObject({
      actor: uid('maria'),
      entity: 'message',
      entityId: messageId,
      before: { cid: seed.groupChannelCid, authorId: uid('chloe') },
      after: { removed: true },
    });
    expect(JSON.stringify(entries)).not.toContain('flat');
  });

  it('lets the author delete their own message without a removal notice or an audit entry', async () => {
    const [, id] = seed.groupChannelCid.split(':');
    const sent = await as<{ message: { id: string } }>('chloe', 'POST', `/channels/messaging/${id}/message`, {
      message: { text: 'Sent by mistake' },
    });
    const own = await as('chloe', 'DELETE', `/messages/${sent.body.message.id}`);
    expect(own).toMatchObject({ status: 200, body: { message: { type: 'deleted', text: '' } } });
    expect((own.body.message as Record<string, unknown>).moderation_details).toBeUndefined();
    const { rows } = await server.db.query('SELECT 1 FROM audit_log WHERE entity_id = $1', [
      sent.body.message.id,
    ]);
    expect(rows).toEqual([]);
    // The product's callables are unaffected: a plain call still answers.
    expect((await call(server, people.chloe, 'chat-getToken', {})).status).toBe(200);
  });
});
