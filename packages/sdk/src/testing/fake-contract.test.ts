import { ContractError, type ChatEvent } from '@caseroom/protocol';
import { describe, expect, it } from 'vitest';
import { connectFakeClient, FakeChatServer } from './index.js';

/** The fake server is held to the protocol as the real one is (issue 13 §8): drift fails the test using it. */
describe('FakeChatServer and the protocol', () => {
  it('refuses to send an event with a field the protocol does not declare', () => {
    const server = new FakeChatServer();
    server.createChannel('messaging', 'general', { members: ['amy'] }, 'amy');
    const message = server.sendMessage('messaging:general', 'amy', { text: 'hi' });
    const drifted = {
      type: 'message.new',
      cid: 'messaging:general',
      created_at: message.created_at,
      message,
      position: 7,
    } as unknown as ChatEvent;
    expect(() => server.emit('messaging:general', drifted)).toThrow(ContractError);
    expect(server.contractErrors).toHaveLength(1);
    expect(server.contractErrors[0]?.message).toContain('position');
  });

  it('lets the custom data a test or client set come back, and checks every answer a client gets', async () => {
    const server = new FakeChatServer();
    server.createChannel('messaging', 'general', { members: ['amy', 'bob'], color: 'red' }, 'amy');
    server.sendMessage('messaging:general', 'bob', { text: 'hello', mood: 'calm' });
    const amy = await connectFakeClient(server, { id: 'amy' });
    const channel = amy.channel('messaging', 'general');
    await channel.watch();
    await channel.sendMessage({ text: 'back', priority: 'high' });
    await channel.markRead();
    expect(channel.state.getSnapshot().channel).toMatchObject({ color: 'red' });
    expect(server.contractErrors).toEqual([]);
    await amy.disconnectUser();
  });
});
