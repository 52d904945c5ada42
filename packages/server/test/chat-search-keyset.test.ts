import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, type ChatUserClient } from './chat-support.js';

/** Search `next` is a keyset cursor: every sort pages without gaps or repeats, and new messages do not shift pages. */
let server: TestServer;
let maria: ChatUserClient;

type Found = { results: Array<{ message: { id: string } }>; next?: string; code?: number };

beforeAll(async () => {
  server = await startTestServer({ database: 'postgres', productChatRules: false });
  maria = await chatUser(server, 'maria');
  await maria.call('POST', '/channels/messaging/k/query', { data: { members: ['maria'] } });
  // Equal ranks and, in one statement, equal timestamps: ties must be broken by the server order.
  for (let i = 0; i < 7; i++) {
    const text = i % 2 === 0 ? 'plan plan review' : 'plan';
    await maria.call('POST', '/channels/messaging/k/message', { message: { id: `k${i}`, text } });
  }
  await server.db.query(
    "UPDATE chat_messages SET created_at = date_trunc('second', now()) WHERE id IN ('k2', 'k3', 'k4')",
  );
});

afterAll(async () => {
  await server?.close();
});

const search = async (payload: Record<string, unknown>) =>
  (
    await maria.call<Found>('GET', '/search', undefined, {
      payload: JSON.stringify({ filter_conditions: { cid: 'messaging:k' }, query: 'plan', ...payload }),
    })
  ).body;

async function pageAll(sort: unknown, limit: number, between?: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  let next: string | undefined;
  for (let i = 0; i < 20; i++) {
    const page = await search({ sort, limit, ...(next ? { next } : {}) });
    seen.push(...page.results.map((r) => r.message.id));
    if (!page.next) return seen;
    next = page.next;
    await between?.();
  }
  throw new Error('did not end');
}

describe('search keyset cursor', () => {
  it('pages every sort completely, each message once, in the order of one big page', async () => {
    const sorts = [
      undefined,
      [{ field: 'relevance', direction: -1 }],
      [{ field: 'created_at', direction: 1 }],
      [{ field: 'created_at', direction: -1 }],
      [
        { field: 'updated_at', direction: -1 },
        { field: 'relevance', direction: 1 },
      ],
    ];
    for (const sort of sorts) {
      const whole = (await search({ ...(sort ? { sort } : {}), limit: 100 })).results.map(
        (r) => r.message.id,
      );
      expect(whole).toHaveLength(7);
      expect(await pageAll(sort, 2)).toEqual(whole);
      expect(await pageAll(sort, 3)).toEqual(whole);
    }
  });

  it('is not shifted by messages arriving between pages', async () => {
    let n = 0;
    const sort = [{ field: 'created_at', direction: -1 }];
    const before = (await search({ sort, limit: 100 })).results.map((r) => r.message.id);
    const paged = await pageAll(sort, 2, async () => {
      await maria.call('POST', '/channels/messaging/k/message', {
        message: { id: `late${n++}`, text: 'plan' },
      });
    });
    expect(paged).toEqual(before);
  });

  it('refuses a foreign or broken cursor (code 4)', async () => {
    const page = await search({ sort: [{ field: 'created_at', direction: 1 }], limit: 2 });
    expect(page.next).toBeDefined();
    const other = await search({ sort: [{ field: 'created_at', direction: -1 }], next: page.next });
    expect(other).toMatchObject({ code: 4 });
    expect(await search({ next: 'not-a-cursor' })).toMatchObject({ code: 4 });
  });
});
