import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatCall, chatUser, openSocket, type ChatUserClient } from './chat-support.js';

let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;
let chloe: ChatUserClient;
let eve: ChatUserClient;

beforeAll(async () => {
  server = await startTestServer({ database: 'postgres', productChatRules: false });
  maria = await chatUser(server, 'maria', 'Maria');
  noah = await chatUser(server, 'noah', 'Noah');
  chloe = await chatUser(server, 'chloe', 'Chloe');
  eve = await chatUser(server, 'eve', 'Eve');
});

afterAll(async () => {
  await server?.close();
});

const rowCount = async (table: string) =>
  (await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n ?? 0;

describe('chat connection', () => {
  it('answers health.check with connection_id and the own user with unread totals', async () => {
    const socket = await openSocket(server, { token: maria.token, userId: 'maria' });
    expect(socket.first).toMatchObject({
      type: 'health.check',
      me: { id: 'maria', name: 'Maria', total_unread_count: 0, unread_channels: 0 },
    });
    expect(typeof socket.first.connection_id).toBe('string');
    socket.ws.send(JSON.stringify({ type: 'health.check' }));
    const pong = await socket.next('health.check');
    expect(pong.connection_id).toBe(socket.first.connection_id);
    await socket.close();
  });

  it('names its own time in a Server-Timing header, on answers and on refusals', async () => {
    const serverTime = async (token?: string) => {
      const url = new URL('/chat/channels', server.url);
      url.searchParams.set('api_key', server.config.chatApiKey);
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'auth-type': 'jwt',
          'content-type': 'application/json',
          ...(token ? { authorization: token } : {}),
        },
        body: JSON.stringify({ filter_conditions: { members: { $in: ['maria'] } } }),
      });
      await res.text();
      return { status: res.status, timing: res.headers.get('server-timing') ?? '' };
    };
    const ok = await serverTime(maria.token);
    expect(ok.status).toBe(200);
    expect(ok.timing).toMatch(/^app;dur=\d+\.\d\d$/);
    expect(Number(ok.timing.split('=')[1])).toBeGreaterThan(0);
    const refused = await serverTime('not-a-token');
    expect(refused.status).toBe(401);
    expect(refused.timing).toMatch(/^app;dur=\d+\.\d\d$/);
  });

  it('refuses an expired token with code 40, a bad signature with 43, a bad api_key with 2', async () => {
    const expired = await new SignJWT({ user_id: 'maria' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(server.config.chatApiSecret));
    const s1 = await openSocket(server, { token: expired });
    expect(s1.first).toMatchObject({ type: 'connection.error', error: { code: 40, StatusCode: 401 } });
    const forged = await new SignJWT({ user_id: 'maria' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('not-the-secret-at-all-1234'));
    const s2 = await openSocket(server, { token: forged });
    expect(s2.first).toMatchObject({ type: 'connection.error', error: { code: 43 } });
    const s3 = await openSocket(server, { token: maria.token, apiKey: 'wrong' });
    expect(s3.first).toMatchObject({ type: 'connection.error', error: { code: 2 } });

    const http = await chatCall(server, 'POST', '/channels', { token: expired, body: {} });
    expect(http).toMatchObject({ status: 401, body: { code: 40, StatusCode: 401 } });
    const missing = await chatCall(server, 'POST', '/channels', { body: {} });
    expect(missing).toMatchObject({ status: 401, body: { code: 3 } });
    const badKey = await chatCall(server, 'POST', '/channels', { token: maria.token, apiKey: 'x', body: {} });
    expect(badKey).toMatchObject({ status: 401, body: { code: 2 } });
  });
});

describe('channels', () => {
  it('creates a channel on query, then gets the same one', async () => {
    const data = {
      members: ['maria', 'noah'],
      name: 'Case team',
      caseplans: ['cp1'],
      organizations: ['org1'],
      hasClient: false,
    };
    // Product fields (caseplans, organizations, hasClient) are server-only: the product creates such channels.
    const { caseplans, organizations, hasClient, ...userData } = data;
    await server.app.chat.server.getOrCreateChannel(
      'messaging',
      'team-cp1',
      { ...userData, caseplans, organizations, hasClient },
      'maria',
    );
    const created = await maria.call('POST', '/channels/messaging/team-cp1/query', {
      data: userData,
      state: true,
      watch: true,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      channel: {
        cid: 'messaging:team-cp1',
        name: 'Case team',
        caseplans: ['cp1'],
        organizations: ['org1'],
        hasClient: false,
        member_count: 2,
      },
      messages: [],
    });
    const caps = (created.body.channel as { own_capabilities: string[] }).own_capabilities;
    expect(caps).toContain('send-message');
    const again = await noah.call('POST', '/channels/messaging/team-cp1/query', {
      data: { members: ['noah'] },
    });
    expect(again.body).toMatchObject({ channel: { cid: 'messaging:team-cp1', member_count: 2 } });
  });

  it('creates one distinct channel per member list', async () => {
    const a = await maria.call('POST', '/channels/messaging/query', {
      data: { members: ['maria', 'chloe'] },
    });
    const b = await chloe.call('POST', '/channels/messaging/query', {
      data: { members: ['chloe', 'maria'] },
    });
    expect(a.status).toBe(200);
    const cid = (a.body.channel as { cid: string }).cid;
    expect(cid).toMatch(/^messaging:!members-/);
    expect((b.body.channel as { cid: string }).cid).toBe(cid);
  });

  it('refuses a non-member reading a channel with 403 code 17', async () => {
    const res = await eve.call('POST', '/channels/messaging/team-cp1/query', {});
    expect(res).toMatchObject({ status: 403, body: { code: 17, StatusCode: 403 } });
  });

  it('queries channels by members $in and by a custom array field, members only', async () => {
    await server.app.chat.server.getOrCreateChannel(
      'messaging',
      'team-cp2',
      { members: ['noah', 'chloe'], caseplans: ['cp2', 'cp9'], team: 'org1' },
      'noah',
    );
    const byMembers = await noah.call('POST', '/channels', {
      filter_conditions: { members: { $in: ['noah'] } },
    });
    const cids = (byMembers.body.channels as Array<{ channel: { cid: string } }>).map((c) => c.channel.cid);
    expect(cids).toEqual(expect.arrayContaining(['messaging:team-cp1', 'messaging:team-cp2']));
    const byCustom = await noah.call('POST', '/channels', {
      filter_conditions: { caseplans: { $in: ['cp9'] }, type: 'messaging' },
    });
    expect((byCustom.body.channels as Array<{ channel: { cid: string } }>).map((c) => c.channel.cid)).toEqual(
      ['messaging:team-cp2'],
    );
    // eve filters by someone else's membership and still sees nothing: only her own channels come back.
    const leak = await eve.call('POST', '/channels', { filter_conditions: { members: { $in: ['noah'] } } });
    expect(leak.body.channels).toEqual([]);
    const ors = await chloe.call('POST', '/channels', {
      filter_conditions: { $or: [{ caseplans: { $in: ['cp2'] } }, { cid: 'messaging:team-cp1' }] },
    });
    expect((ors.body.channels as unknown[]).length).toBe(1);
  });
});

describe('messages', () => {
  it('delivers message.new to every connected member and not to a non-member', async () => {
    const mariaSocket = await openSocket(server, { token: maria.token });
    const noahSocket = await openSocket(server, { token: noah.token });
    const eveSocket = await openSocket(server, { token: eve.token });
    const sent = await maria.call('POST', '/channels/messaging/team-cp1/message', {
      message: { id: 'm-1', text: 'Hello team' },
    });
    expect(sent).toMatchObject({
      status: 200,
      body: { message: { id: 'm-1', text: 'Hello team', type: 'regular' } },
    });
    for (const socket of [mariaSocket, noahSocket]) {
      const event = await socket.next('message.new');
      expect(event).toMatchObject({
        cid: 'messaging:team-cp1',
        message: { id: 'm-1', user: { id: 'maria' } },
      });
    }
    expect(await eveSocket.receives('message.new', 300)).toBe(false);
    const state = await noah.call('POST', '/channels/messaging/team-cp1/query', { state: true });
    expect((state.body.messages as Array<{ id: string }>).map((m) => m.id)).toEqual(['m-1']);
    await Promise.all([mariaSocket.close(), noahSocket.close(), eveSocket.close()]);
  });

  it('answers a repeated id with code 4 "already exists" and keeps one message', async () => {
    const res = await maria.call('POST', '/channels/messaging/team-cp1/message', {
      message: { id: 'm-1', text: 'again' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 4, StatusCode: 400 });
    expect(String(res.body.message)).toMatch(/message with id m-1 already exists/);
    const rows = await server.db.query("SELECT * FROM chat_messages WHERE id = 'm-1'");
    expect(rows.rows).toHaveLength(1);
  });

  it('refuses a too long text (20), a non-member (403, 17) and malformed JSON (400, 4) without writing', async () => {
    const before = await rowCount('chat_messages');
    const long = await maria.call('POST', '/channels/messaging/team-cp1/message', {
      message: { text: 'x'.repeat(5001) },
    });
    expect(long).toMatchObject({ status: 400, body: { code: 20 } });
    const stranger = await eve.call('POST', '/channels/messaging/team-cp1/message', {
      message: { text: 'hi' },
    });
    expect(stranger).toMatchObject({ status: 403, body: { code: 17, StatusCode: 403 } });
    const bad = await chatCall(server, 'POST', '/channels/messaging/team-cp1/message', {
      token: maria.token,
      rawBody: '{"message": {"text": ',
    });
    expect(bad).toMatchObject({ status: 400, body: { code: 4, StatusCode: 400 } });
    const missing = await maria.call('POST', '/channels/messaging/team-cp1/message', {});
    expect(missing).toMatchObject({ status: 400, body: { code: 4 } });
    const unknown = await maria.call('POST', '/channels/messaging/nope/message', { message: { text: 'hi' } });
    expect(unknown).toMatchObject({ status: 404, body: { code: 16 } });
    const route = await maria.call('GET', '/no/such/route');
    expect(route.status).toBe(404);
    expect(await rowCount('chat_messages')).toBe(before);
  });

  it('pages messages by keyset (limit, id_lt, id_gt, id_around)', async () => {
    await server.app.chat.server.getOrCreateChannel('messaging', 'paging', { members: ['maria'] }, 'maria');
    for (let i = 0; i < 7; i++) {
      await maria.call('POST', '/channels/messaging/paging/message', {
        message: { id: `p${i}`, text: `n${i}` },
      });
    }
    const ids = async (messages: Record<string, unknown>) => {
      const res = await maria.call('POST', '/channels/messaging/paging/query', { messages });
      return (res.body.messages as Array<{ id: string }>).map((m) => m.id);
    };
    expect(await ids({ limit: 3 })).toEqual(['p4', 'p5', 'p6']);
    expect(await ids({ limit: 3, id_lt: 'p4' })).toEqual(['p1', 'p2', 'p3']);
    expect(await ids({ limit: 2, id_gt: 'p4' })).toEqual(['p5', 'p6']);
    expect(await ids({ limit: 3, id_around: 'p3' })).toEqual(['p2', 'p3', 'p4']);
  });

  it('runs the server API end to end: send as a user, hooks after commit', async () => {
    const seen: string[] = [];
    server.app.chat.server.onMessageNew((e) => {
      seen.push(`${e.cid}/${e.message.id}`);
    });
    const message = await server.app.chat.server.sendMessage('messaging:team-cp2', 'chloe', {
      id: 's-1',
      text: 'from server',
    });
    expect(message).toMatchObject({ id: 's-1', user: { id: 'chloe' } });
    expect(seen).toEqual(['messaging:team-cp2/s-1']);
    const channels = await server.app.chat.server.queryChannels({ caseplans: { $in: ['cp2'] } });
    expect(channels.map((c) => c.cid)).toEqual(['messaging:team-cp2']);
    const updated = await server.app.chat.server.updateChannelPartial('messaging:team-cp2', {
      hasGuest: true,
    });
    expect(updated).toMatchObject({ hasGuest: true, caseplans: ['cp2', 'cp9'] });
  });
});
