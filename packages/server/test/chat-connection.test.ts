import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatCall, chatUser, openSocket, type ChatUserClient } from './chat-support.js';

let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;

beforeAll(async () => {
  server = await startTestServer({ productChatRules: false });
  maria = await chatUser(server, 'maria', 'Maria');
  noah = await chatUser(server, 'noah', 'Noah');
  await server.app.chat.server.getOrCreateChannel(
    'messaging',
    'conn',
    { members: ['maria', 'noah'] },
    'maria',
  );
});

afterAll(async () => {
  await server?.close();
});

describe('the first frame', () => {
  it('is health.check even while the user’s channels are busy as the socket opens', async () => {
    // Events fanned out while a socket is being opened used to reach it before its health.check.
    let sending = true;
    const send = async (k: number) => {
      for (let i = 0; sending; i++) {
        await maria.call('POST', '/channels/messaging/conn/message', { message: { text: `busy ${k}.${i}` } });
      }
    };
    const senders = [0, 1, 2, 3].map(send);
    const firsts: string[] = [];
    try {
      for (let i = 0; i < 30; i++) {
        const socket = await openSocket(server, { token: noah.token });
        firsts.push(socket.first.type);
        await socket.close();
      }
    } finally {
      sending = false;
      await Promise.all(senders);
    }
    expect(firsts).toEqual(Array.from({ length: 30 }, () => 'health.check'));
  });
});

describe('guests', () => {
  it('POST /chat/guest creates a guest user and a token that connects', async () => {
    const res = await chatCall(server, 'POST', '/guest', {
      body: { user: { id: 'visitor-1', name: 'Visitor' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { id: 'visitor-1', name: 'Visitor', role: 'guest' } });
    const socket = await openSocket(server, { token: res.body.access_token as string });
    expect(socket.first).toMatchObject({ type: 'health.check', me: { id: 'visitor-1', role: 'guest' } });
    await socket.close();
    // An id is handed out once: knowing a guest's id does not give their token (issue 13 §2).
    const again = await chatCall(server, 'POST', '/guest', { body: { user: { id: 'visitor-1' } } });
    expect(again).toMatchObject({ status: 403, body: { code: 17 } });
  });

  it('refuses a guest id that belongs to a real user, a bad api key and a missing id', async () => {
    expect(
      (await chatCall(server, 'POST', '/guest', { body: { user: { id: 'maria' } } })).body,
    ).toMatchObject({
      code: 17,
    });
    const badKey = await chatCall(server, 'POST', '/guest', { apiKey: 'x', body: { user: { id: 'v2' } } });
    expect(badKey).toMatchObject({ status: 401, body: { code: 2 } });
    expect((await chatCall(server, 'POST', '/guest', { body: { user: {} } })).body).toMatchObject({
      code: 4,
    });
  });
});

describe('anonymous connections', () => {
  it('connect with Auth-Type anonymous, read nothing private and write nothing', async () => {
    const socket = await openSocket(server, { authType: 'anonymous' });
    expect(socket.first).toMatchObject({ type: 'health.check', me: { role: 'anonymous' } });
    const list = await chatCall(server, 'POST', '/channels', { authType: 'anonymous', body: {} });
    expect(list).toMatchObject({ status: 200, body: { channels: [] } });
    const read = await chatCall(server, 'POST', '/channels/messaging/conn/query', {
      authType: 'anonymous',
      body: {},
    });
    expect(read).toMatchObject({ status: 403, body: { code: 17 } });
    const send = await chatCall(server, 'POST', '/channels/messaging/conn/message', {
      authType: 'anonymous',
      body: { message: { text: 'hi' } },
    });
    expect(send).toMatchObject({ status: 403, body: { code: 17 } });
    const users = await server.db.query(`SELECT 1 FROM chat_users WHERE id LIKE '!anon-%'`);
    expect(users.rowCount).toBe(0);
    await socket.close();
  });
});

describe('presence', () => {
  it('reports online in users and user.presence.changed to co-members who asked for presence', async () => {
    const watcher = await openSocket(server, { token: noah.token });
    const connectionId = watcher.first.connection_id as string;
    const q = await chatCall(server, 'POST', '/channels', {
      token: noah.token,
      query: { connection_id: connectionId },
      body: { filter_conditions: { cid: 'messaging:conn' }, presence: true },
    });
    const members = (
      q.body.channels as Array<{ members: Array<{ user: { id: string; online: boolean } }> }>
    )[0]?.members;
    expect(members?.find((m) => m.user.id === 'maria')?.user.online).toBe(false);
    expect(members?.find((m) => m.user.id === 'noah')?.user.online).toBe(true);

    const mariaSocket = await openSocket(server, { token: maria.token });
    expect(await watcher.next('user.presence.changed')).toMatchObject({
      user: { id: 'maria', online: true },
    });
    const users = await noah.call('GET', '/users', undefined, {
      payload: JSON.stringify({ filter_conditions: { id: 'maria' } }),
    });
    expect(users.body.users).toEqual([expect.objectContaining({ id: 'maria', online: true })]);
    await mariaSocket.close();
    expect(await watcher.next('user.presence.changed')).toMatchObject({
      user: { id: 'maria', online: false },
    });

    // Without presence: true, no presence events.
    const quiet = await openSocket(server, { token: noah.token });
    const again = await openSocket(server, { token: maria.token });
    expect(await quiet.receives('user.presence.changed', 300)).toBe(false);
    await again.close();
    await quiet.close();
    await watcher.close();
  });
});

describe('long-poll fallback', () => {
  it('opens with health.check and delivers the same events as a socket', async () => {
    const opened = await chatCall<{ events: Array<Record<string, unknown>> }>(server, 'GET', '/longpoll', {
      token: noah.token,
    });
    expect(opened.status).toBe(200);
    const hello = opened.body.events[0];
    expect(hello).toMatchObject({ type: 'health.check', me: { id: 'noah' } });
    const connectionId = hello?.connection_id as string;
    const socket = await openSocket(server, { token: noah.token });

    const poll = chatCall<{ events: Array<Record<string, unknown>> }>(server, 'GET', '/longpoll', {
      token: noah.token,
      query: { connection_id: connectionId, timeout: '5000' },
    });
    await maria.call('POST', '/channels/messaging/conn/message', {
      message: { id: 'lp-1', text: 'by poll' },
    });
    const got = await poll;
    const viaSocket = await socket.next('message.new');
    const viaPoll = got.body.events.find((e) => e.type === 'message.new');
    expect(viaPoll).toEqual(viaSocket);

    // The long-poll connection does not watch the channel, so notification.message_new follows; drain it.
    await chatCall(server, 'GET', '/longpoll', {
      token: noah.token,
      query: { connection_id: connectionId, timeout: '50' },
    });
    const empty = await chatCall<{ events: unknown[] }>(server, 'GET', '/longpoll', {
      token: noah.token,
      query: { connection_id: connectionId, timeout: '50' },
    });
    expect(empty.body.events).toEqual([]);
    await socket.close();
  });

  it('answers code 46 for an unknown connection or one of another user', async () => {
    const other = await chatCall<{ events: Array<{ connection_id: string }> }>(server, 'GET', '/longpoll', {
      token: maria.token,
    });
    const id = other.body.events[0]?.connection_id ?? '';
    for (const connection_id of ['nope', id]) {
      const res = await chatCall(server, 'GET', '/longpoll', {
        token: noah.token,
        query: { connection_id, timeout: '10' },
      });
      expect(res).toMatchObject({ status: 400, body: { code: 46 } });
    }
  });
});

describe('devices', () => {
  it('registers, lists and deletes own devices; the connect payload sets one at open', async () => {
    expect((await noah.call('POST', '/devices', { id: 'dev-1', push_provider: 'firebase' })).status).toBe(
      200,
    );
    const socket = await openSocket(server, {
      token: noah.token,
      json: { device: { id: 'dev-2', push_provider: 'apn' } },
    });
    const list = await noah.call('GET', '/devices');
    expect((list.body.devices as Array<{ id: string }>).map((d) => d.id).sort()).toEqual(['dev-1', 'dev-2']);
    expect(
      (await noah.call('POST', '/devices', { id: 'x', push_provider: 'firebase', user_id: 'maria' })).status,
    ).toBe(403);
    // `user_id` in the query names the caller: another user's id fails authentication.
    expect((await maria.call('GET', '/devices', undefined, { user_id: 'noah' })).status).toBe(401);
    expect((await noah.call('DELETE', '/devices', undefined, { id: 'dev-1' })).status).toBe(200);
    expect((await noah.call('DELETE', '/devices', undefined, { id: 'dev-1' })).body).toMatchObject({
      code: 16,
    });
    expect((await noah.call('POST', '/devices', { id: 'x', push_provider: 'carrier-pigeon' })).status).toBe(
      400,
    );
    await socket.close();
  });
});
