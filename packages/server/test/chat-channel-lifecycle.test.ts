import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, openSocket, type ChatUserClient } from './chat-support.js';

let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;

beforeAll(async () => {
  server = await startTestServer({ database: 'postgres', productChatRules: false });
  maria = await chatUser(server, 'maria');
  noah = await chatUser(server, 'noah');
  server.app.chat.server.protectChannelFields(['caseplans', 'organizations', 'hasClient', 'hasGuest']);
});

afterAll(async () => {
  await server?.close();
});

const channelIds = (body: Record<string, unknown>) =>
  (body.channels as Array<{ channel: { cid: string } }>).map((c) => c.channel.cid);

describe('channel lifecycle', () => {
  it('keeps server-only fields out of users hands', async () => {
    const spoof = await maria.call('POST', '/channels/messaging/fake/query', {
      data: { members: ['maria', 'noah'], caseplans: ['cp1'] },
    });
    expect(spoof).toMatchObject({ status: 403, body: { code: 17 } });
    const team = await maria.call('POST', '/channels/messaging/fake/query', {
      data: { members: ['maria'], team: 'org' },
    });
    expect(team).toMatchObject({ status: 403, body: { code: 17 } });
    const rows = await server.db.query("SELECT 1 FROM chat_channels WHERE id = 'fake'");
    expect(rows.rowCount).toBe(0);
    await maria.call('POST', '/channels/messaging/mine/query', { data: { members: ['maria'] } });
    const patch = await maria.call('PATCH', '/channels/messaging/mine', { set: { hasGuest: true } });
    expect(patch).toMatchObject({ status: 403, body: { code: 17 } });
    const ok = await maria.call('PATCH', '/channels/messaging/mine', { set: { name: 'Mine', topic: 'x' } });
    expect(ok.body).toMatchObject({ channel: { name: 'Mine', topic: 'x' } });
  });

  it('hides a channel from the list until shown or a new message arrives', async () => {
    await server.app.chat.server.getOrCreateChannel(
      'messaging',
      'hideme',
      { members: ['maria', 'noah'] },
      'maria',
    );
    const socket = await openSocket(server, { token: noah.token });
    await noah.call('POST', '/channels/messaging/hideme/hide', {});
    expect(await socket.next('channel.hidden')).toMatchObject({ cid: 'messaging:hideme' });
    const list = await noah.call('POST', '/channels', { filter_conditions: { members: { $in: ['noah'] } } });
    expect(channelIds(list.body)).not.toContain('messaging:hideme');
    const hiddenList = await noah.call('POST', '/channels', { filter_conditions: { hidden: true } });
    expect(channelIds(hiddenList.body)).toEqual(['messaging:hideme']);
    await maria.call('POST', '/channels/messaging/hideme/message', { message: { text: 'ping' } });
    const back = await noah.call('POST', '/channels', { filter_conditions: { members: { $in: ['noah'] } } });
    expect(channelIds(back.body)).toContain('messaging:hideme');
    await socket.close();
  });

  it('truncates (owner only) and deletes a channel with events', async () => {
    const socket = await openSocket(server, { token: noah.token });
    const denied = await noah.call('POST', '/channels/messaging/hideme/truncate', {});
    expect(denied).toMatchObject({ status: 403, body: { code: 17 } });
    const truncated = await maria.call('POST', '/channels/messaging/hideme/truncate', {});
    expect(truncated.status).toBe(200);
    expect(await socket.next('channel.truncated')).toMatchObject({ cid: 'messaging:hideme' });
    const state = await noah.call('POST', '/channels/messaging/hideme/query', {});
    expect(state.body.messages).toEqual([]);
    const deleted = await maria.call('DELETE', '/channels/messaging/hideme');
    expect(deleted.status).toBe(200);
    expect(await socket.next('channel.deleted')).toMatchObject({ cid: 'messaging:hideme' });
    const list = await noah.call('POST', '/channels', {});
    expect(channelIds(list.body)).not.toContain('messaging:hideme');
    await socket.close();
  });

  it('suppresses notification.message_new for watching connections only', async () => {
    await server.app.chat.server.getOrCreateChannel(
      'messaging',
      'watch',
      { members: ['maria', 'noah'] },
      'maria',
    );
    const watching = await openSocket(server, { token: noah.token });
    const idle = await openSocket(server, { token: noah.token });
    await noah.call(
      'POST',
      '/channels/messaging/watch/query',
      { watch: true },
      {
        connection_id: String(watching.first.connection_id),
      },
    );
    await maria.call('POST', '/channels/messaging/watch/message', { message: { text: 'hello' } });
    expect(await watching.next('message.new')).toMatchObject({ cid: 'messaging:watch' });
    expect(await idle.next('message.new')).toMatchObject({ cid: 'messaging:watch' });
    expect(await idle.next('notification.message_new')).toMatchObject({ cid: 'messaging:watch' });
    expect(await watching.receives('notification.message_new')).toBe(false);
    await Promise.all([watching.close(), idle.close()]);
  });

  it('enforces slow mode with code 60 for members, not for the server', async () => {
    await server.app.chat.server.getOrCreateChannel(
      'messaging',
      'slow',
      { members: ['maria', 'noah'] },
      'maria',
    );
    await server.app.chat.server.updateChannelPartial('messaging:slow', { cooldown: 30 });
    const first = await noah.call('POST', '/channels/messaging/slow/message', { message: { text: 'one' } });
    expect(first.status).toBe(200);
    const second = await noah.call('POST', '/channels/messaging/slow/message', { message: { text: 'two' } });
    expect(second).toMatchObject({ status: 429, body: { code: 60 } });
    const state = await noah.call('POST', '/channels/messaging/slow/query', {});
    expect((state.body.channel as { own_capabilities: string[] }).own_capabilities).toContain('slow-mode');
  });
});
