import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatUser, openSocket, type ChatSocket, type ChatUserClient, type Frame } from './chat-support.js';
import { call, signUp } from './domain-support.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** Issue 13 §8: the protocol is the contract on the wire, and nothing is written or sent that changes nothing. */

let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;
const BASE = '/channels/messaging/contract';

beforeAll(async () => {
  server = await startTestServer({ database: 'postgres' });
  maria = await chatUser(server, 'maria', 'Maria Lopez');
  noah = await chatUser(server, 'noah', 'Noah Smith');
  await server.app.chat.server.getOrCreateChannel(
    'messaging',
    'contract',
    { members: ['maria', 'noah'] },
    'maria',
  );
});

afterAll(async () => {
  await server?.close();
});

/** The frames a socket got before the first one of `type` (which must come): no waiting on silence. */
async function framesBefore(socket: ChatSocket, type: string): Promise<Frame[]> {
  const marker = await socket.next(type);
  return socket.frames.slice(0, socket.frames.indexOf(marker));
}

const eventRows = async () =>
  Number((await server.db.query<{ n: string }>('SELECT count(*) AS n FROM chat_events')).rows[0]?.n);

describe('custom events', () => {
  it('refuses every server namespace, capabilities. included, so nobody forges a server frame', async () => {
    const socket = await openSocket(server, { token: noah.token });
    const forged = await maria.call('POST', `${BASE}/event`, {
      event: { type: 'capabilities.changed', own_capabilities: ['update-any-message'] },
    });
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ code: 4 });
    // A custom event of its own namespace goes through, in the sender's name whatever it claims.
    const own = await maria.call('POST', `${BASE}/event`, { event: { type: 'case.note', user_id: 'noah' } });
    expect(own.status).toBe(200);
    const before = await framesBefore(socket, 'case.note');
    expect(before.map((f) => f.type)).not.toContain('capabilities.changed');
    expect(socket.frames.find((f) => f.type === 'case.note')).toMatchObject({ user_id: 'maria' });
    await socket.close();
  });
});

describe('a mark-read that changes nothing', () => {
  it('writes nothing and tells nobody, and still answers the read state', async () => {
    await maria.call('POST', `${BASE}/message`, { message: { id: 'q1', text: 'hello' } });
    const first = await noah.call<{ event: Frame }>('POST', `${BASE}/read`, {});
    expect(first.status).toBe(200);
    const socket = await openSocket(server, { token: maria.token });
    const rows = await eventRows();
    const member = async () =>
      (
        await server.db.query<{ xmin: string }>(
          `SELECT xmin::text FROM chat_members WHERE cid = 'messaging:contract' AND user_id = 'noah'`,
        )
      ).rows[0]?.xmin;
    const version = await member();

    const again = await noah.call<{ event: Frame }>('POST', `${BASE}/read`, {});
    expect(again.status).toBe(200);
    expect(again.body.event).toMatchObject({ type: 'message.read', last_read_message_id: 'q1' });
    expect(await eventRows()).toBe(rows);
    expect(await member()).toBe(version);

    // Maria's next frame is the message she sends now: no message.read came before it.
    await maria.call('POST', `${BASE}/message`, { message: { id: 'q2', text: 'again' } });
    expect((await framesBefore(socket, 'message.new')).map((f) => f.type)).not.toContain('message.read');

    // A read that does change something still writes and tells.
    await noah.call('POST', `${BASE}/read`, {});
    expect(await socket.next('message.read')).toMatchObject({ last_read_message_id: 'q2' });
    await socket.close();
  });
});

describe('a chat token refresh', () => {
  it('neither rewrites the chat user nor broadcasts user.updated when nothing changed', async () => {
    const pat = await signUp(server, 'pat');
    const first = await call(server, pat, 'chat-getToken', null);
    expect(first.status).toBe(200);
    const token = first.body.result as string;
    const socket = await openSocket(server, { token });
    const version = async () =>
      (await server.db.query<{ xmin: string }>('SELECT xmin::text FROM chat_users WHERE id = $1', [pat.uid]))
        .rows[0]?.xmin;
    const before = await version();

    const refresh = await call(server, pat, 'chat-getToken', null);
    expect(refresh.status).toBe(200);
    expect(await version()).toBe(before);

    // The next frame for pat is being added to a channel: no user.updated came before it.
    await server.app.chat.server.getOrCreateChannel('messaging', 'pat-room', { members: [pat.uid] }, pat.uid);
    expect((await framesBefore(socket, 'notification.added_to_channel')).map((f) => f.type)).not.toContain(
      'user.updated',
    );

    // A real change (a new name) is saved and announced.
    await server.db.query('UPDATE "user" SET name = $2 WHERE id = $1', [pat.uid, 'Pat Renamed']);
    await server.db.query('UPDATE profiles SET name = $2 WHERE id = $1', [pat.uid, 'Pat Renamed']);
    await call(server, pat, 'chat-getToken', null);
    expect(await socket.next('user.updated')).toMatchObject({ user: { id: pat.uid, name: 'Pat Renamed' } });
    await socket.close();
  });
});
