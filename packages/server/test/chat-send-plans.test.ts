import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Durable sends (docs/performance.md): a plain send's statements are prepared once per connection and run on
 * their cached generic plan, so PostgreSQL neither parses nor plans them again for each message.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ productChatRules: false });
  await server.app.chat.server.upsertUsers([
    { id: 'plan-a', name: 'A' },
    { id: 'plan-b', name: 'B' },
  ]);
  await server.app.chat.server.getOrCreateChannel(
    'messaging',
    'plans',
    { members: ['plan-a', 'plan-b'] },
    'plan-a',
  );
});

afterAll(async () => {
  await server?.close();
});

describe('a plain send', () => {
  it('runs prepared statements on their generic plan, never planning them per message', async () => {
    // One after the other: the pool hands the same idle connection back each time.
    for (let i = 0; i < 8; i++) {
      const message = await server.app.chat.server.sendMessage('messaging:plans', 'plan-a', {
        id: `plan-${i}`,
        text: `message ${i}`,
      });
      expect(message).toMatchObject({ id: `plan-${i}`, text: `message ${i}`, user: { id: 'plan-a' } });
    }
    const { rows } = await server.db.tx((q) =>
      q.query<{ name: string; generic_plans: number; custom_plans: number }>(
        `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements
          WHERE name LIKE 'caseroom\\_%' ORDER BY name`,
      ),
    );
    expect(rows.map((r) => r.name)).toEqual([
      'caseroom_insert_plain_message',
      'caseroom_lock_channel',
      'caseroom_read_locked_channel',
    ]);
    for (const r of rows) {
      expect(r.custom_plans).toBe(0);
      expect(r.generic_plans).toBeGreaterThan(0);
    }
  });
});
