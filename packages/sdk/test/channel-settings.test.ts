import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatClient } from '../src/index.js';
import { connectTo, serverHelper, until, type TestServer } from './support.js';

interface ServerApi {
  getOrCreateChannel(type: string, id: string, data: { members: string[] }, by: string): Promise<unknown>;
  addModerators(cid: string, userIds: string[]): Promise<void>;
}

/** Channel settings and push devices through the SDK, against the real server on PostgreSQL. */
describe('channel partial update, slow mode and devices', () => {
  let server: TestServer;
  const clients: ChatClient[] = [];

  beforeAll(async () => {
    server = await (await serverHelper()).startTestServer({ productChatRules: false });
    await server.app.chat.server.upsertUsers([{ id: 'mod' }, { id: 'member' }]);
    const api = server.app.chat.server as unknown as ServerApi;
    await api.getOrCreateChannel('messaging', 'settings', { members: ['mod', 'member'] }, 'mod');
    await api.addModerators('messaging:settings', ['mod']);
  });
  afterAll(async () => {
    for (const client of clients) await client.disconnectUser();
    await server?.close();
  });

  async function connect(id: string) {
    const client = await connectTo(server, id);
    clients.push(client);
    return client;
  }

  it('a moderator turns slow mode on and off; members see it through channel.updated', async () => {
    const mod = await connect('mod');
    const member = await connect('member');
    const modChannel = mod.channel('messaging', 'settings');
    const memberChannel = member.channel('messaging', 'settings');
    await Promise.all([modChannel.watch(), memberChannel.watch()]);

    const updated = await modChannel.enableSlowMode(30);
    expect(updated.cooldown).toBe(30);
    expect(modChannel.state.getSnapshot().channel?.cooldown).toBe(30);
    // The answer updates the data but not the moderator's own capabilities (chat-spec §4 channel.updated).
    expect(modChannel.can('set-channel-cooldown')).toBe(true);
    await until(() => memberChannel.state.getSnapshot().channel?.cooldown === 30, 'member sees the cooldown');

    await modChannel.disableSlowMode();
    await until(() => !memberChannel.state.getSnapshot().channel?.cooldown, 'member sees slow mode off');
  });

  it('a member without set-channel-cooldown is refused', async () => {
    const member = clients[1] ?? (await connect('member'));
    await expect(member.channel('messaging', 'settings').enableSlowMode(10)).rejects.toMatchObject({
      status: 403,
    });
  });

  it('adds, lists and removes the user’s push devices', async () => {
    const member = clients[1] ?? (await connect('member'));
    await member.devices.add('push-token-1', 'firebase', 'caseroom');
    expect((await member.devices.list()).map((d) => d.id)).toEqual(['push-token-1']);
    await member.devices.remove('push-token-1');
    expect(await member.devices.list()).toEqual([]);
  });
});
