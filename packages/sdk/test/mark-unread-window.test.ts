import { CHAT_LIMITS } from '@caseroom/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatClient } from '../src/index.js';
import { connectTo, serverHelper, type TestServer } from './support.js';

interface ServerApi {
  getOrCreateChannel(type: string, id: string, data: { members: string[] }, by: string): Promise<unknown>;
  sendMessage(cid: string, userId: string, message: { id: string; text: string }): Promise<unknown>;
}

/** chat-spec §5: mark unread reaches back a limited window; past it the server refuses and the SDK says why. */
describe('mark unread window, server and SDK', () => {
  let server: TestServer;
  let reader: ChatClient;
  const ids: string[] = [];

  beforeAll(async () => {
    server = await (await serverHelper()).startTestServer({ productChatRules: false });
    await server.app.chat.server.upsertUsers([{ id: 'writer' }, { id: 'reader' }]);
    const api = server.app.chat.server as unknown as ServerApi;
    await api.getOrCreateChannel('messaging', 'window', { members: ['writer', 'reader'] }, 'writer');
    for (let i = 0; i <= CHAT_LIMITS.markUnreadWindow; i++) {
      ids.push(`w-${i}`);
      await api.sendMessage('messaging:window', 'writer', { id: `w-${i}`, text: `message ${i}` });
    }
    reader = await connectTo(server, 'reader');
  }, 120_000);
  afterAll(async () => {
    await reader?.disconnectUser();
    await server?.close();
  });

  it('marks the oldest message inside the window unread', async () => {
    const channel = reader.channel('messaging', 'window');
    await channel.watch();
    await expect(channel.markUnread(ids[1]!)).resolves.toBeUndefined();
  });

  it('refuses one message further back with code 4 and shows the spec notice', async () => {
    const channel = reader.channel('messaging', 'window');
    await expect(channel.markUnread(ids[0]!)).rejects.toMatchObject({ code: 4, status: 400 });
    const texts = reader.notifications.getSnapshot().map((n) => n.text);
    expect(texts).toContain(
      `Error, only the first ${CHAT_LIMITS.markUnreadWindow} message can be marked as unread`,
    );
  });
});
