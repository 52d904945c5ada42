import { CHAT_LIMITS } from '@caseroom/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signChatToken } from '../src/chat/auth.js';
import { ChatError } from '../src/chat/errors.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatCall, chatUser, openSocket, type ChatUserClient, type Reply } from './chat-support.js';

/**
 * The review's malformed requests (issue 13 §6), each a 500 before: field names that are Object.prototype members,
 * values of the wrong type for a column, NUL and unpaired surrogates, a 3,000-deep `$and`, dates past PostgreSQL's
 * range; and custom data over its limit (§5), whoever sends it. Each answers code 4 naming the field, on both
 * backends.
 */

/** `{"$and":[{"$and":[... {"name":"x"} ...]}]}`, `depth` levels deep, as JSON text (too deep to stringify). */
const deepAnd = (depth: number) => `${'{"$and":['.repeat(depth)}{"name":"x"}${']}'.repeat(depth)}`;
/** A filter nested `depth` levels of `$and`, shallow enough to pass the JSON depth limit. */
const nestedAnd = (depth: number): Record<string, unknown> =>
  depth === 0 ? { name: 'x' } : { $and: [nestedAnd(depth - 1)] };
const FAR = '300000-01-01T00:00:00Z';
/** A custom value just over `bytes` of JSON. */
const padding = (bytes: number) => 'x'.repeat(bytes);

type Case = {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  payload?: unknown;
  /** The answer must name this (the field, or what is wrong with it). */
  names: RegExp;
  /** Users only (the server is refused before the input is read). */
  userOnly?: boolean;
};

const CASES: Case[] = [
  {
    name: 'channel sort by toString',
    method: 'POST',
    path: '/channels',
    body: { sort: [{ field: 'toString', direction: 1 }] },
    names: /sort\.0\.field/,
  },
  {
    name: 'channel sort by constructor',
    method: 'POST',
    path: '/channels',
    body: { sort: [{ field: 'constructor', direction: -1 }] },
    names: /sort\.0\.field/,
  },
  {
    name: 'user filter on toString',
    method: 'GET',
    path: '/users',
    payload: { filter_conditions: { toString: 'x' } },
    names: /toString/,
  },
  {
    name: 'user sort by constructor',
    method: 'GET',
    path: '/users',
    payload: { sort: [{ field: 'constructor', direction: 1 }] },
    names: /sort\.0\.field/,
  },
  {
    name: 'member filter on constructor',
    method: 'GET',
    path: '/members',
    payload: { type: 'messaging', id: 'bad', filter_conditions: { constructor: 'x' } },
    names: /constructor/,
  },
  {
    name: 'message filter on toString',
    method: 'GET',
    path: '/search',
    payload: {
      filter_conditions: { members: { $in: ['ana'] } },
      message_filter_conditions: { toString: 'x' },
    },
    names: /toString/,
  },
  {
    name: 'created_at "not-a-date"',
    method: 'POST',
    path: '/channels',
    body: { filter_conditions: { created_at: 'not-a-date' } },
    names: /created_at/,
  },
  {
    name: 'frozen "x"',
    method: 'POST',
    path: '/channels',
    body: { filter_conditions: { frozen: 'x' } },
    names: /frozen/,
  },
  {
    name: 'member_count "abc"',
    method: 'POST',
    path: '/channels',
    body: { filter_conditions: { member_count: { $gt: 'abc' } } },
    names: /member_count/,
  },
  {
    name: 'search: created_at "not-a-date"',
    method: 'GET',
    path: '/search',
    payload: {
      filter_conditions: { members: { $in: ['ana'] } },
      message_filter_conditions: { created_at: { $lt: 'not-a-date' } },
    },
    names: /created_at/,
  },
  {
    name: 'search: pinned "x"',
    method: 'GET',
    path: '/search',
    payload: { filter_conditions: { frozen: 'x' }, query: 'hi' },
    names: /frozen/,
  },
  {
    name: 'NUL in a channel name filter',
    method: 'POST',
    path: '/channels',
    body: { filter_conditions: { name: 'a\u0000b' } },
    names: /filter_conditions\.name/,
  },
  {
    name: 'unpaired surrogate in a custom field filter',
    method: 'POST',
    path: '/channels',
    body: { filter_conditions: { topic: '\uD800' } },
    names: /filter_conditions\.topic/,
  },
  {
    name: 'NUL in message text',
    method: 'POST',
    path: '/channels/messaging/bad/message',
    body: { message: { text: 'hello\u0000' } },
    names: /message\.text/,
  },
  {
    name: 'unpaired surrogate in message text',
    method: 'POST',
    path: '/channels/messaging/bad/message',
    body: { message: { text: 'x\uD800' } },
    names: /message\.text/,
  },
  {
    name: 'unpaired surrogate in custom message data',
    method: 'POST',
    path: '/channels/messaging/bad/message',
    body: { message: { text: 'x', mood: '\uDFFF' } },
    names: /message\.mood/,
  },
  {
    name: 'NUL in a user name',
    method: 'POST',
    path: '/users',
    body: { users: [{ id: 'ana', name: 'A\u0000na' }] },
    names: /users\.0\.name/,
  },
  {
    name: 'NUL in a channel name',
    method: 'PATCH',
    path: '/channels/messaging/bad',
    body: { set: { name: '\u0000' } },
    names: /set\.name/,
  },
  {
    name: 'NUL in a path id',
    method: 'GET',
    path: '/messages/a%00b',
    names: /path parameter id/,
  },
  {
    name: 'NUL in a search query',
    method: 'GET',
    path: '/search',
    payload: { filter_conditions: { members: { $in: ['ana'] } }, query: 'a\u0000' },
    names: /payload\.query/,
  },
  {
    name: '3,000-deep $and',
    method: 'POST',
    path: '/channels',
    rawBody: `{"filter_conditions":${deepAnd(3000)}}`,
    names: /^filter_conditions(\.\$and(\.0)?)+: is nested deeper than 32 levels$/,
  },
  {
    name: '300-deep $and in a search payload (3,000 is longer than a URL may be)',
    method: 'GET',
    path: '/search',
    payload: `{"filter_conditions":{"members":{"$in":["ana"]}},"message_filter_conditions":${deepAnd(300)}}`,
    names: /nested deeper than/,
  },
  {
    name: `$and nested past ${CHAT_LIMITS.maxFilterDepth} levels`,
    method: 'POST',
    path: '/channels',
    body: { filter_conditions: nestedAnd(CHAT_LIMITS.maxFilterDepth + 1) },
    names: /\$and: filters nest at most/,
  },
  {
    name: `more than ${CHAT_LIMITS.maxFilterConditions} conditions`,
    method: 'POST',
    path: '/channels',
    body: {
      filter_conditions: {
        $or: Array.from({ length: CHAT_LIMITS.maxFilterConditions + 1 }, (_, i) => ({ name: `n${i}` })),
      },
    },
    names: /at most 100 conditions/,
  },
  {
    name: 'year 300000 in a channel filter',
    method: 'POST',
    path: '/channels',
    body: { filter_conditions: { last_message_at: { $gt: FAR } } },
    names: /last_message_at/,
  },
  {
    name: 'year 300000 in sync',
    method: 'POST',
    path: '/sync',
    body: { channel_cids: ['messaging:bad'], last_sync_at: FAR },
    names: /last_sync_at/,
  },
  {
    name: 'year +300000 around which to page',
    method: 'POST',
    path: '/channels/messaging/bad/query',
    body: { messages: { created_at_around: `+${FAR}` } },
    names: /created_at_around/,
  },
  {
    name: 'a forged search cursor',
    method: 'GET',
    path: '/search',
    payload: {
      filter_conditions: { members: { $in: ['ana'] } },
      query: 'hi',
      sort: [{ field: 'created_at', direction: -1 }],
      next: Buffer.from(JSON.stringify({ s: 'm.created_at-,m.seq-', k: ['not-a-date', '1'] })).toString(
        'base64url',
      ),
    },
    names: /next/,
  },
  {
    name: 'a forged thread cursor',
    method: 'POST',
    path: '/threads',
    body: { next: Buffer.from(JSON.stringify({ at: FAR, id: 'x' })).toString('base64url') },
    names: /next/,
    userOnly: true,
  },
  {
    name: 'custom message data over the limit',
    method: 'POST',
    path: '/channels/messaging/bad/message',
    body: { message: { text: 'x', notes: padding(CHAT_LIMITS.maxMessageCustomBytes) } },
    names: /message custom data is \d+ bytes of JSON, the maximum is 5120/,
  },
  {
    name: 'custom user data over the limit',
    method: 'POST',
    path: '/users',
    body: { users: [{ id: 'ana', bio: padding(CHAT_LIMITS.maxUserCustomBytes) }] },
    names: /user custom data is \d+ bytes/,
  },
  {
    name: 'custom channel data over the limit (a partial update adding to what is stored)',
    method: 'PATCH',
    path: '/channels/messaging/bad',
    body: { set: { more: padding(CHAT_LIMITS.maxChannelCustomBytes - 3000) } },
    names: /channel custom data is \d+ bytes/,
  },
  {
    name: 'custom reaction data over the limit',
    method: 'POST',
    path: '/messages/bad-1/reaction',
    body: { reaction: { type: 'like', note: padding(CHAT_LIMITS.maxReactionCustomBytes) } },
    names: /reaction custom data is \d+ bytes/,
    userOnly: true,
  },
  {
    name: 'custom thread data over the limit',
    method: 'PATCH',
    path: '/threads/bad-1',
    body: { set: { summary: padding(CHAT_LIMITS.maxThreadCustomBytes) } },
    names: /thread custom data is \d+ bytes/,
  },
];

async function send(server: TestServer, token: string, c: Case): Promise<Reply> {
  if (c.payload !== undefined) {
    const payload = typeof c.payload === 'string' ? c.payload : JSON.stringify(c.payload);
    return chatCall(server, c.method, c.path, { token, query: { payload } });
  }
  return chatCall(server, c.method, c.path, {
    token,
    ...(c.rawBody !== undefined ? { rawBody: c.rawBody } : c.body !== undefined ? { body: c.body } : {}),
  });
}

describe.each(['postgres', 'pglite'] as const)('bad input is code 4, never a 500 (%s)', (database) => {
  let server: TestServer;
  let ana: ChatUserClient;
  let serverToken: string;

  beforeAll(async () => {
    server = await startTestServer({ database, env: { CHAT_RATE_LIMITS: 'off' } });
    ana = await chatUser(server, 'ana');
    await chatUser(server, 'ben');
    serverToken = await signChatToken(server.config, { server: true });
    await server.app.chat.server.getOrCreateChannel(
      'messaging',
      'bad',
      { members: ['ana', 'ben'], notes: padding(3000) },
      'ana',
    );
    await ana.call('POST', '/channels/messaging/bad/message', { message: { id: 'bad-1', text: 'hi' } });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it.each(CASES)('$name', async (c) => {
    for (const token of c.userOnly ? [ana.token] : [ana.token, serverToken]) {
      const res = await send(server, token, c);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ code: 4, StatusCode: 400 });
      expect(res.body.message).toMatch(c.names);
    }
  });

  it('a channel filter on a custom field named toString or constructor is just a custom field', async () => {
    for (const filter of [{ toString: true }, { constructor: 'x' }, { valueOf: { $exists: true } }]) {
      const res = await ana.call('POST', '/channels', { filter_conditions: filter });
      expect(res, JSON.stringify(filter)).toMatchObject({ status: 200, body: { channels: [] } });
    }
  });

  it('a socket whose connect payload holds NUL is refused with code 4, not closed as an internal error', async () => {
    const socket = await openSocket(server, {
      token: ana.token,
      json: { device: { id: 'phone\u0000', push_provider: 'firebase' } },
    });
    expect(socket.first).toMatchObject({
      type: 'connection.error',
      error: {
        code: 4,
        message: 'json.device.id: must not contain NUL characters or unpaired UTF-16 surrogates',
      },
    });
    await socket.close();
  });

  it('the server acting for a user who does not exist is code 16, not a foreign-key failure', async () => {
    const server_ = (method: string, path: string, body: unknown) =>
      chatCall(server, method, path, { token: serverToken, body });
    const device = await server_('POST', '/devices', {
      id: 'd1',
      push_provider: 'firebase',
      user_id: 'nobody',
    });
    expect(device).toMatchObject({
      status: 404,
      body: { code: 16, message: 'User "nobody" does not exist' },
    });
    const block = await server_('POST', '/users/block', { blocked_user_id: 'ben', user_id: 'nobody' });
    expect(block).toMatchObject({ status: 404, body: { code: 16, message: 'User "nobody" does not exist' } });
  });

  it('a partial update with a wrong type for a known field is code 4 naming the field, and changes nothing', async () => {
    for (const [set, field] of [
      [{ pinned: 'x' }, 'pinned'],
      [{ silent: 1 }, 'silent'],
      [{ text: 42 }, 'text'],
    ] as const) {
      const res = await ana.call('PUT', '/messages/bad-1', { set });
      expect(res).toMatchObject({ status: 400, body: { code: 4, message: new RegExp(`^${field} must`) } });
    }
    const page = await ana.call('GET', '/messages/bad-1');
    expect(page.body).toMatchObject({ message: { pinned: false, silent: false } });
  });

  it('the custom data limit holds for guests, for edits and for the server-side API', async () => {
    const over = padding(CHAT_LIMITS.maxMessageCustomBytes);
    const guest = await chatCall(server, 'POST', '/guest', { body: { user: { id: 'visitor', bio: over } } });
    expect(guest).toMatchObject({ status: 400, body: { code: 4, message: /user custom data/ } });
    const edit = await ana.call('PUT', '/messages/bad-1', { set: { a: padding(3000) } });
    expect(edit.status, JSON.stringify(edit.body).slice(0, 300)).toBe(200);
    const grown = await ana.call('PUT', '/messages/bad-1', { set: { b: padding(3000) } });
    expect(grown).toMatchObject({ status: 400, body: { code: 4, message: /message custom data/ } });
    const replaced = await ana.call('POST', '/messages/bad-1', { message: { text: 'hi', c: over } });
    expect(replaced).toMatchObject({ status: 400, body: { code: 4, message: /message custom data/ } });
    const api = server.app.chat.server;
    const viaApi = api.sendMessage('messaging:bad', 'ana', { text: 'x', notes: over });
    await expect(viaApi).rejects.toBeInstanceOf(ChatError);
    await expect(viaApi).rejects.toMatchObject({ code: 4, message: /message custom data/ });
    await expect(api.sendMessage('messaging:bad', 'ana', { text: 'a\u0000' })).rejects.toMatchObject({
      code: 4,
      message: /message\.text: must not contain NUL/,
    });
    const bigChannel = api.getOrCreateChannel('messaging', 'big', { members: ['ana'], notes: over }, 'ana');
    await expect(bigChannel).rejects.toMatchObject({ code: 4, message: /channel custom data/ });
    // Just under the limit is fine.
    const fits = await ana.call('POST', '/channels/messaging/bad/message', {
      message: { text: 'x', notes: padding(CHAT_LIMITS.maxMessageCustomBytes - 20) },
    });
    expect(fits.status, JSON.stringify(fits.body).slice(0, 300)).toBe(200);
  });
});
