import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, openSocket } from './chat-support.js';

/** Smoke suite on the embedded database: same migrations, same queries, one connection. */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ database: 'pglite', productChatRules: false });
});

afterAll(async () => {
  await server?.close();
});

describe('chat on PGlite', () => {
  it('creates, queries, sends and delivers', async () => {
    const maria = await chatUser(server, 'maria');
    const chloe = await chatUser(server, 'chloe');
    const socket = await openSocket(server, { token: chloe.token });
    expect(socket.first).toMatchObject({ type: 'health.check', me: { id: 'chloe' } });
    const made = await server.app.chat.server.getOrCreateChannel(
      'messaging',
      undefined,
      { members: ['maria', 'chloe'], caseplans: ['cp1'] },
      'maria',
    );
    const created = await maria.call('POST', `/channels/messaging/${made.id}/query`, { watch: true });
    expect(created.status).toBe(200);
    const cid = (created.body.channel as { cid: string }).cid;
    const [type, id] = cid.split(':');
    const sent = await maria.call('POST', `/channels/${type}/${id}/message`, {
      message: { id: 'x1', text: 'hi' },
    });
    expect(sent.status).toBe(200);
    expect(await socket.next('message.new')).toMatchObject({ cid, message: { id: 'x1' } });
    const dup = await maria.call('POST', `/channels/${type}/${id}/message`, {
      message: { id: 'x1', text: 'hi' },
    });
    expect(dup.body).toMatchObject({ code: 4 });
    const list = await chloe.call('POST', '/channels', {
      filter_conditions: { caseplans: { $in: ['cp1'] } },
    });
    expect(list.body.channels).toHaveLength(1);
    expect(
      (list.body.channels as Array<{ read: Array<{ user: { id: string }; unread_messages: number }> }>)[0]
        ?.read,
    ).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user: expect.objectContaining({ id: 'chloe' }), unread_messages: 1 }),
      ]),
    );
    await socket.close();
  });
});
