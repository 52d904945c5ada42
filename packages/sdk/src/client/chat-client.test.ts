import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';
import type { ChatClient } from './chat-client.js';

/** Lets queued microtasks and fake-server replies run. */
async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

async function until(check: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await settle(5);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('ChatClient with the fake server', () => {
  const clients: ChatClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.disconnectUser();
    vi.useRealTimers();
  });

  async function setup() {
    const server = new FakeChatServer();
    server.createChannel('messaging', 'general', { members: ['amy', 'bob'], team: 'org1' }, 'amy');
    const amy = await connectFakeClient(server, { id: 'amy', name: 'Amy' });
    const bob = await connectFakeClient(server, { id: 'bob', name: 'Bob' });
    clients.push(amy, bob);
    return { server, amy, bob };
  }

  it('connects, exposes me and the connection id, and sends the standard headers and query', async () => {
    const { server, amy } = await setup();
    expect(amy.connection.getSnapshot()).toMatchObject({ status: 'connected', online: true });
    expect(amy.connection.getSnapshot().connectionId).toMatch(/^conn-/);
    expect(amy.me.getSnapshot()?.id).toBe('amy');
    await amy.channel('messaging', 'general').watch();
    const request = server.requestsTo(/query$/)[0];
    expect(request?.headers).toMatchObject({ authorization: server.tokenFor('amy'), 'auth-type': 'jwt' });
    expect(request?.headers['x-client-request-id']).toMatch(/[0-9a-f-]{36}/);
    expect(request?.query).toMatchObject({ api_key: 'fake-key', user_id: 'amy' });
    expect(request?.query.connection_id).toBe(amy.connection.getSnapshot().connectionId);
  });

  it('returns one channel instance per cid', async () => {
    const { amy } = await setup();
    expect(amy.channel('messaging', 'general')).toBe(amy.channel('messaging', 'general'));
  });

  it('sends with local echo: sending at once, then received with the server copy; the other side sees it', async () => {
    const { amy, bob } = await setup();
    const amyChannel = amy.channel('messaging', 'general');
    const bobChannel = bob.channel('messaging', 'general');
    await Promise.all([amyChannel.watch(), bobChannel.watch()]);
    const seen: string[] = [];
    amyChannel.state.subscribe(() => {
      const last = amyChannel.state.getSnapshot().messages.at(-1);
      if (last) seen.push(last.status);
    });
    const sending = amyChannel.sendMessage({ text: 'hello' });
    expect(amyChannel.state.getSnapshot().messages.at(-1)).toMatchObject({
      text: 'hello',
      status: 'sending',
    });
    const done = await sending;
    expect(done.status).toBe('received');
    expect(done.id.startsWith('amy-')).toBe(true);
    expect(seen[0]).toBe('sending');
    expect(seen.at(-1)).toBe('received');
    await until(() => bobChannel.state.getSnapshot().messages.some((m) => m.id === done.id), 'bob sees it');
    expect(bobChannel.state.getSnapshot().messages.filter((m) => m.id === done.id)).toHaveLength(1);
    expect(bobChannel.state.getSnapshot().unreadCount).toBe(1);
    // Amy's own copy is not duplicated by her message.new event.
    await settle();
    expect(amyChannel.state.getSnapshot().messages.filter((m) => m.id === done.id)).toHaveLength(1);
  });

  it('marks a refused send failed with the error, resends it, and counts "already exists" as received', async () => {
    const { server, amy } = await setup();
    const channel = amy.channel('messaging', 'general');
    await channel.watch();
    server.failNext(/message$/, { status: 500, code: -1, message: 'boom' });
    const failed = await channel.sendMessage({ text: 'try me' });
    expect(failed).toMatchObject({ status: 'failed', error: { code: -1, status: 500, message: 'boom' } });
    expect(channel.state.getSnapshot().messages.at(-1)?.status).toBe('failed');

    const retry = channel.resendMessage(failed);
    const during = channel.state.getSnapshot().messages.at(-1);
    expect(during?.status).toBe('sending');
    expect(during?.error).toBeUndefined();
    expect((await retry).status).toBe('received');

    server.failNext(/message$/, {
      status: 400,
      code: 4,
      message: `message with id ${failed.id} already exists`,
    });
    const again = await channel.resendMessage({ ...failed, status: 'failed' });
    expect(again.status).toBe('received');
    expect(channel.state.getSnapshot().messages.filter((m) => m.id === failed.id)).toHaveLength(1);
  });

  it('refreshes the token on code 40 and retries the call', async () => {
    const { server, amy } = await setup();
    server.revokeTokens();
    const state = await amy.channel('messaging', 'general').watch();
    expect(state.channel?.cid).toBe('messaging:general');
    const queries = server.requestsTo(/query$/);
    expect(queries).toHaveLength(2);
    expect(queries[1]?.headers.authorization).toBe(server.tokenFor('amy'));
  });

  it('dispatches events to on(type) and on("*") listeners until unsubscribed', async () => {
    const { server, amy } = await setup();
    const typed = vi.fn();
    const all = vi.fn();
    const off = amy.on('message.new', typed);
    amy.on('*', all);
    server.sendMessage('messaging:general', 'bob', { text: 'one' });
    await until(() => typed.mock.calls.length === 1);
    expect(typed.mock.calls[0]?.[0]).toMatchObject({ type: 'message.new', message: { text: 'one' } });
    off();
    server.sendMessage('messaging:general', 'bob', { text: 'two' });
    await until(() => all.mock.calls.length === 2);
    expect(typed).toHaveBeenCalledTimes(1);
  });

  it('creates a distinct channel from members and registers it under its cid', async () => {
    const { amy } = await setup();
    const direct = amy.channel('messaging', undefined, { members: ['bob', 'amy'] });
    await direct.watch();
    expect(direct.cid).toBe('messaging:!members-amy-bob');
    expect(amy.channel('messaging', '!members-amy-bob')).toBe(direct);
  });

  it('disconnects with status disconnected and refuses channel() afterwards', async () => {
    const { amy } = await setup();
    await amy.disconnectUser();
    expect(amy.connection.getSnapshot()).toMatchObject({ status: 'disconnected', online: false });
    expect(() => amy.channel('messaging', 'general')).toThrow(/connectUser/);
  });
});
