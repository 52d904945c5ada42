import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

/** A chat user cannot forge the fields that tie a channel to case plans; the product (server side) can. */
describe('product channel fields are server-only', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.app.chat.server.upsertUsers([
      { id: 'u-a', name: 'A' },
      { id: 'u-b', name: 'B' },
    ]);
    token = await server.app.chat.server.createToken('u-a');
  });
  afterAll(async () => {
    await server?.close();
  });

  const query = (id: string, data: Record<string, unknown>) =>
    fetch(`${server.url}/chat/channels/messaging/${id}/query?api_key=${server.config.chatApiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token, 'auth-type': 'jwt' },
      body: JSON.stringify({ data: { members: ['u-a', 'u-b'], ...data } }),
    });

  it.each(['caseplans', 'organizations', 'hasClient', 'hasGuest'])(
    'refuses a client-set %s',
    async (field) => {
      const res = await query(`forged-${field}`, { [field]: field.startsWith('has') ? true : ['cp-1'] });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      const body = (await res.json()) as { code: number };
      expect(typeof body.code).toBe('number');
    },
  );

  it('refuses users creating even plain product chats (issue 13 §2); the server sets the fields', async () => {
    const plain = await query('plain', { name: 'Plain' });
    expect(plain.status).toBe(403);
    expect(((await plain.json()) as { code: number }).code).toBe(17);
    const channel = await server.app.chat.server.getOrCreateChannel(
      'messaging',
      'tied',
      { members: ['u-a', 'u-b'], caseplans: ['cp-1'], hasClient: false },
      'u-a',
    );
    expect(channel.caseplans).toEqual(['cp-1']);
  });
});
