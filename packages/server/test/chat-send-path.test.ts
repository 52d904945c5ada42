import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, openSocket, type ChatUserClient } from './chat-support.js';

/**
 * The send path reads the channel, the sender's access and the users to present in the statement that locks the
 * channel, and the audience and the members to mention in the statement that inserts: same answers as before.
 */

let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;
let olga: ChatUserClient;
let zed: ChatUserClient;

const CHANNEL = '/channels/messaging/send-path';

beforeAll(async () => {
  server = await startTestServer({ productChatRules: false });
  maria = await chatUser(server, 'maria', 'Maria M');
  noah = await chatUser(server, 'noah', 'Noah N');
  olga = await chatUser(server, 'olga', 'Olga O');
  zed = await chatUser(server, 'zed', 'Zed Z');
  expect(
    (await maria.call('POST', `${CHANNEL}/query`, { data: { members: ['maria', 'noah'] } })).status,
  ).toBe(200);
  // Olga is invited and has not accepted: no reader of the channel.
  expect((await maria.call('POST', CHANNEL, { invites: ['olga'] })).status).toBe(200);
});

afterAll(async () => {
  await server?.close();
});

describe('sending a message', () => {
  it('mentions members only, in the order given, and shows the same message in the answer and the event', async () => {
    const noahSocket = await openSocket(server, { token: noah.token });
    const olgaSocket = await openSocket(server, { token: olga.token });
    try {
      await noah.call(
        'POST',
        `${CHANNEL}/query`,
        { watch: true },
        { connection_id: String(noahSocket.first.connection_id) },
      );
      const res = await maria.call<{ message: Record<string, unknown> }>('POST', `${CHANNEL}/message`, {
        message: {
          id: 'sp-1',
          text: 'hello @noah',
          mentioned_users: ['zed', 'noah', 'olga', 'maria', 'noah'],
          tag: 'x',
        },
      });
      expect(res.status).toBe(200);
      const message = res.body.message;
      expect(message).toMatchObject({
        id: 'sp-1',
        text: 'hello @noah',
        tag: 'x',
        user_id: 'maria',
        user: { id: 'maria', name: 'Maria M' },
        reply_count: 0,
        latest_reactions: [],
      });
      expect(
        (message.mentioned_users as Array<{ id: string; name: string }>).map((u) => [u.id, u.name]),
      ).toEqual([
        ['noah', 'Noah N'],
        ['maria', 'Maria M'],
      ]);
      const event = await noahSocket.next('message.new');
      expect(event.message).toEqual(message);
      expect(JSON.stringify(event.message)).toBe(JSON.stringify(message));
      expect(await olgaSocket.receives('message.new', 300)).toBe(false);
      // The stored message says the same (read back from the database, not from the send path).
      const got = await noah.call<{ message: Record<string, unknown> }>('GET', '/messages/sp-1');
      expect(got.body.message).toMatchObject({ mentioned_users: [{ id: 'noah' }, { id: 'maria' }] });
    } finally {
      await noahSocket.close();
      await olgaSocket.close();
    }
  });

  it('refuses non-readers (403, code 17), missing channels (404, code 16) and repeated ids (code 4)', async () => {
    const invited = await olga.call('POST', `${CHANNEL}/message`, { message: { text: 'let me in' } });
    expect(invited).toMatchObject({ status: 403, body: { code: 17 } });
    const outsider = await zed.call('POST', `${CHANNEL}/message`, { message: { text: 'hi' } });
    expect(outsider).toMatchObject({ status: 403, body: { code: 17 } });
    const missing = await maria.call('POST', '/channels/messaging/no-such-channel/message', {
      message: { text: 'hi' },
    });
    expect(missing).toMatchObject({ status: 404, body: { code: 16 } });
    const again = await maria.call('POST', `${CHANNEL}/message`, { message: { id: 'sp-1', text: 'again' } });
    expect(again).toMatchObject({ status: 400, body: { code: 4 } });
  });

  it('answers with custom data and attachments as they read back, and a repeated id changes nothing', async () => {
    const unread = async () => (await noah.call('GET', '/unread')).body.total_unread_count as number;
    const custom = {
      zeta: 1,
      a: { yy: 2, b: [{ dd: 1, c: 'x' }] },
      '10': 'ten',
      bb: null,
      é: 'accent',
      e: 0.1,
    };
    const attachments = [
      { type: 'file', title: 't', asset_url: 'https://a.example/f', z: { k22: 1, k1: 2 } },
    ];
    const res = await maria.call<{ message: Record<string, unknown> }>('POST', `${CHANNEL}/message`, {
      message: { id: 'sp-3', text: '\n\nwith data\n', attachments, ...custom },
    });
    expect(res.status).toBe(200);
    const got = await maria.call<{ message: Record<string, unknown> }>('GET', '/messages/sp-3');
    const data = (m: Record<string, unknown>) =>
      JSON.stringify([m.text, m.attachments, ...Object.keys(custom).map((k) => [k, m[k]])]);
    expect(data(res.body.message)).toBe(data(got.body.message));
    expect(Object.keys(res.body.message)).toEqual(Object.keys(got.body.message));
    expect(res.body.message.text).toBe('with data');
    const before = await unread();
    const again = await maria.call('POST', `${CHANNEL}/message`, { message: { id: 'sp-3', text: 'other' } });
    expect(again).toMatchObject({ status: 400, body: { code: 4 } });
    expect(await unread()).toBe(before);
    expect((await maria.call('GET', '/messages/sp-3')).body).toMatchObject({
      message: { text: 'with data' },
    });
  });

  it('sends for a user through the server API, presenting that user and the members mentioned', async () => {
    const sent = await server.app.chat.server.sendMessage('messaging:send-path', 'noah', {
      id: 'sp-2',
      text: 'from the server',
      mentioned_users: ['maria', 'zed'],
    });
    expect(sent).toMatchObject({ user: { id: 'noah', name: 'Noah N' }, mentioned_users: [{ id: 'maria' }] });
    expect(sent.mentioned_users).toHaveLength(1);
  });
});
