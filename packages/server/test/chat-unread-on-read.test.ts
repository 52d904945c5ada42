import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, type ChatUserClient } from './chat-support.js';

let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;
let chloe: ChatUserClient;

const CHANNEL = '/channels/messaging/counted';

async function unread(user: ChatUserClient): Promise<number> {
  const res = await user.call('GET', '/unread');
  expect(res.status).toBe(200);
  return res.body.total_unread_count as number;
}

async function listed(user: ChatUserClient): Promise<string[]> {
  const res = await user.call('POST', '/channels', {});
  return (res.body.channels as Array<{ channel: { cid: string } }>).map((s) => s.channel.cid);
}

async function send(message: Record<string, unknown>): Promise<void> {
  expect((await maria.call('POST', `${CHANNEL}/message`, { message })).status).toBe(200);
}

beforeAll(async () => {
  server = await startTestServer({ productChatRules: false });
  maria = await chatUser(server, 'maria');
  noah = await chatUser(server, 'noah');
  chloe = await chatUser(server, 'chloe');
  await maria.call('POST', `${CHANNEL}/query`, { data: { members: ['maria', 'noah'] } });
});

afterAll(async () => {
  await server?.close();
});

describe('unread counts computed on read', () => {
  it('counts others’ main-list messages only, starts late members at zero, un-hides on send', async () => {
    await send({ id: 'u-1', text: 'one' });
    await send({ id: 'u-2', text: 'quiet', silent: true });
    await send({ id: 'u-3', text: 'two' });
    await send({ id: 'u-4', text: 'in thread', parent_id: 'u-1' });
    expect(await unread(noah)).toBe(2);
    expect(await unread(maria)).toBe(0);

    expect((await maria.call('POST', CHANNEL, { add_members: ['chloe'] })).status).toBe(200);
    expect(await unread(chloe)).toBe(0);
    await send({ id: 'u-5', text: 'three' });
    expect(await unread(chloe)).toBe(1);
    expect(await unread(noah)).toBe(3);

    expect((await noah.call('POST', `${CHANNEL}/hide`, {})).status).toBe(200);
    expect(await listed(noah)).not.toContain('messaging:counted');
    await send({ id: 'u-6', text: 'four' });
    expect(await listed(noah)).toContain('messaging:counted');
    expect(await unread(noah)).toBe(4);

    expect((await noah.call('POST', `${CHANNEL}/read`, {})).status).toBe(200);
    expect(await unread(noah)).toBe(0);
    await send({ id: 'u-7', text: 'five' });
    expect(await unread(noah)).toBe(1);
  });
});
