import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signChatToken } from '../src/chat/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatCall, type Reply, chatUser, type ChatUserClient } from './chat-support.js';

/** `/chat/commands` CRUD, `config.commands` resolution and the per-type message length (code 20). */
let server: TestServer;
let maria: ChatUserClient;
let admin: (method: string, path: string, body?: unknown) => Promise<Reply>;

beforeAll(async () => {
  server = await startTestServer({ database: 'postgres', productChatRules: false });
  maria = await chatUser(server, 'maria');
  const token = await signChatToken(server.config, { server: true });
  admin = (method, path, body) => chatCall(server, method, path, { token, ...(body ? { body } : {}) });
});

afterAll(async () => {
  await server?.close();
});

type Config = { config: { commands: Array<{ name: string; args: string; description: string }> } };
const configOf = async (cid: string) => {
  const [type, id] = cid.split(':');
  const res = await maria.call<{ channel: Config }>('POST', `/channels/${type}/${id}/query`, {
    data: { members: ['maria'] },
  });
  expect(res.status).toBe(200);
  return res.body.channel.config.commands;
};

describe('commands', () => {
  it('has none built in, and only the server or an admin manages them', async () => {
    expect((await maria.call('GET', '/commands')).body).toEqual({ commands: [] });
    expect(await configOf('messaging:cmd-a')).toEqual([]);
    const denied = await maria.call('POST', '/commands', { name: 'remind', description: 'Remind me' });
    expect(denied).toMatchObject({ status: 403, body: { code: 17 } });
    const bad = await admin('POST', '/commands', { name: 'Bad Name' });
    expect(bad).toMatchObject({ status: 400, body: { code: 4 } });
  });

  it('creates, reads, updates and deletes; ["all"] lists every command, a list names them', async () => {
    const created = await admin('POST', '/commands', {
      name: 'remind',
      description: 'Remind me',
      args: '[text]',
      set: 'tools',
    });
    expect(created).toMatchObject({ status: 200, body: { command: { name: 'remind', args: '[text]' } } });
    expect((await admin('POST', '/commands', { name: 'remind' })).body).toMatchObject({ code: 4 });
    await admin('POST', '/commands', { name: 'agenda', description: 'Show the agenda' });
    expect((await maria.call('GET', '/commands/agenda')).body).toMatchObject({ name: 'agenda', args: '' });
    expect((await maria.call('GET', '/commands/none')).body).toMatchObject({ code: 16 });

    expect((await configOf('messaging:cmd-a')).map((c) => c.name)).toEqual(['agenda', 'remind']);
    expect(await admin('POST', '/channeltypes', { name: 'casework', commands: ['remind'] })).toMatchObject({
      status: 200,
    });
    expect(await configOf('casework:cmd-b')).toEqual([
      { name: 'remind', args: '[text]', description: 'Remind me', set: 'tools' },
    ]);

    const updated = await admin('PUT', '/commands/remind', { description: 'Remind me later' });
    expect(updated.body).toMatchObject({ command: { description: 'Remind me later', args: '[text]' } });
    expect((await configOf('casework:cmd-b'))[0]).toMatchObject({ description: 'Remind me later' });
    expect((await admin('PUT', '/commands/none', { args: 'x' })).body).toMatchObject({ code: 16 });

    expect((await admin('DELETE', '/commands/remind')).body).toEqual({ name: 'remind' });
    expect(await configOf('casework:cmd-b')).toEqual([]);
    expect((await configOf('messaging:cmd-a')).map((c) => c.name)).toEqual(['agenda']);
    expect((await admin('DELETE', '/commands/remind')).body).toMatchObject({ code: 16 });
  });
});

describe('max_message_length', () => {
  it('enforces the channel type’s limit on send and edit (code 20), else the global 5,000', async () => {
    await admin('POST', '/channeltypes', { name: 'short', max_message_length: 10 });
    await maria.call('POST', '/channels/short/s1/query', { data: { members: ['maria'] } });
    const long = await maria.call('POST', '/channels/short/s1/message', {
      message: { text: 'x'.repeat(11) },
    });
    expect(long).toMatchObject({ status: 400, body: { code: 20 } });
    expect(String(long.body.message)).toContain('maximum is 10');
    const ok = await maria.call('POST', '/channels/short/s1/message', {
      message: { id: 'm10', text: 'x'.repeat(10) },
    });
    expect(ok.status).toBe(200);
    const edit = await maria.call('PUT', '/messages/m10', { set: { text: 'y'.repeat(11) } });
    expect(edit).toMatchObject({ status: 400, body: { code: 20 } });

    await maria.call('POST', '/channels/messaging/s2/query', { data: { members: ['maria'] } });
    const fine = await maria.call('POST', '/channels/messaging/s2/message', {
      message: { text: 'x'.repeat(5000) },
    });
    expect(fine.status).toBe(200);
    const over = await maria.call('POST', '/channels/messaging/s2/message', {
      message: { text: 'x'.repeat(5001) },
    });
    expect(over).toMatchObject({ status: 400, body: { code: 20 } });
    const tooHigh = await admin('PUT', '/channeltypes/short', { max_message_length: 5001 });
    expect(tooHigh).toMatchObject({ status: 400, body: { code: 4 } });
  });
});
