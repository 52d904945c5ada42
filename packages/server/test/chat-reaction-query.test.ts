import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, type ChatUserClient } from './chat-support.js';

/** `POST /chat/messages/{id}/reactions` (query) and the `next` of `GET /chat/messages/{id}/reactions`. */
let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;
const people: ChatUserClient[] = [];

type Found = {
  reactions: Array<{
    type: string;
    score: number;
    user_id: string;
    user?: { id: string };
    message_id: string;
    created_at: string;
    updated_at?: string;
  }>;
  next?: string;
  code?: number;
};

const query = (who: ChatUserClient, id: string, body: Record<string, unknown> = {}) =>
  who.call<Found>('POST', `/messages/${id}/reactions`, body);

beforeAll(async () => {
  server = await startTestServer({ database: 'postgres', productChatRules: false });
  maria = await chatUser(server, 'maria');
  noah = await chatUser(server, 'noah');
  for (let i = 0; i < 6; i++) people.push(await chatUser(server, `u${i}`));
  await maria.call('POST', '/channels/messaging/r/query', {
    data: { members: ['maria', ...people.map((p) => p.id)] },
  });
  await maria.call('POST', '/channels/messaging/r/message', { message: { id: 'r1', text: 'react' } });
  for (const [i, p] of people.entries()) {
    const sent = await p.call('POST', '/messages/r1/reaction', {
      reaction: { type: i % 2 === 0 ? 'like' : 'love', score: i + 1 },
    });
    expect(sent.status).toBe(200);
  }
  await people[0]?.call('POST', '/messages/r1/reaction', { reaction: { type: 'wow' } });
  // Equal times: the keyset must break ties by user and type.
  await server.db.query(
    "UPDATE chat_reactions SET created_at = date_trunc('second', now()) WHERE user_id IN ('u1', 'u2', 'u3')",
  );
});

afterAll(async () => {
  await server?.close();
});

async function pageAll(body: Record<string, unknown>): Promise<string[]> {
  const seen: string[] = [];
  let next: string | undefined;
  for (let i = 0; i < 20; i++) {
    const page = (await query(maria, 'r1', { ...body, ...(next ? { next } : {}) })).body;
    seen.push(...page.reactions.map((r) => `${r.user_id}/${r.type}`));
    if (!page.next) return seen;
    next = page.next;
  }
  throw new Error('did not end');
}

describe('reaction query', () => {
  it('answers reactions with their user, newest first by default', async () => {
    const all = await query(maria, 'r1');
    expect(all.status).toBe(200);
    expect(all.body.reactions).toHaveLength(7);
    expect(all.body.next).toBeUndefined();
    const times = all.body.reactions.map((r) => Date.parse(r.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.body.reactions.find((r) => r.user_id === 'u3')).toMatchObject({
      type: 'love',
      score: 4,
      message_id: 'r1',
      user: { id: 'u3' },
      updated_at: expect.any(String),
    });
  });

  it('filters by type and by user', async () => {
    const likes = await query(maria, 'r1', { filter: { type: { $eq: 'like' } } });
    expect(likes.body.reactions.map((r) => r.user_id).sort()).toEqual(['u0', 'u2', 'u4']);
    const mine = await query(maria, 'r1', { filter: { user_id: { $eq: 'u0' } } });
    expect(mine.body.reactions.map((r) => r.type).sort()).toEqual(['like', 'wow']);
    const both = await query(maria, 'r1', { filter: { type: { $eq: 'wow' }, user_id: { $eq: 'u0' } } });
    expect(both.body.reactions).toHaveLength(1);
  });

  it('pages every sort by next without gaps or repeats, in the order of one big page', async () => {
    for (const sort of [undefined, [{ field: 'created_at', direction: 1 }]]) {
      const whole = (await query(maria, 'r1', sort ? { sort } : {})).body.reactions.map(
        (r) => `${r.user_id}/${r.type}`,
      );
      for (const limit of [1, 2, 3]) {
        expect(await pageAll({ limit, ...(sort ? { sort } : {}) })).toEqual(whole);
      }
    }
    const likes = await pageAll({ limit: 1, filter: { type: { $eq: 'like' } } });
    expect(likes.sort()).toEqual(['u0/like', 'u2/like', 'u4/like']);
  });

  it('refuses bad requests, cursors of another sort, unknown messages and non-members', async () => {
    expect((await query(maria, 'r1', { limit: 301 })).body).toMatchObject({ code: 4 });
    expect((await query(maria, 'r1', { sort: [{ field: 'score', direction: 1 }] })).body).toMatchObject({
      code: 4,
    });
    const first = (await query(maria, 'r1', { limit: 2 })).body;
    const other = await query(maria, 'r1', {
      limit: 2,
      next: first.next,
      sort: [{ field: 'created_at', direction: 1 }],
    });
    expect(other.body).toMatchObject({ code: 4 });
    expect((await query(maria, 'r1', { next: 'garbage' })).body).toMatchObject({ code: 4 });
    const unknown = await query(maria, 'nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 16 });
    const outsider = await query(noah, 'r1');
    expect(outsider.status).toBe(403);
    expect(outsider.body).toMatchObject({ code: 17 });
  });

  it('GET pages by offset or by next, not both', async () => {
    const whole = (await maria.call<Found>('GET', '/messages/r1/reactions')).body;
    expect(whole.reactions).toHaveLength(7);
    expect(whole.next).toBeUndefined();
    const seen: string[] = [];
    let next: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await maria.call<Found>('GET', '/messages/r1/reactions', undefined, {
        limit: '3',
        ...(next ? { next } : {}),
      });
      seen.push(...page.body.reactions.map((r) => `${r.user_id}/${r.type}`));
      next = page.body.next;
      if (!next) break;
    }
    expect(seen).toEqual(whole.reactions.map((r) => `${r.user_id}/${r.type}`));
    const offset = await maria.call<Found>('GET', '/messages/r1/reactions', undefined, { offset: '5' });
    expect(offset.body.reactions).toHaveLength(2);
    const first = await maria.call<Found>('GET', '/messages/r1/reactions', undefined, { limit: '2' });
    const both = await maria.call<Found>('GET', '/messages/r1/reactions', undefined, {
      offset: '2',
      next: first.body.next ?? '',
    });
    expect(both.body).toMatchObject({
      code: 4,
      message: expect.stringContaining('Cannot specify offset with next'),
    });
  });

  it('hides the reactions of messages before a cleared history', async () => {
    const u5 = people[5];
    if (!u5) throw new Error('missing user');
    await u5.call('POST', '/channels/messaging/r/hide', { clear_history: true });
    expect((await query(u5, 'r1')).body).toMatchObject({ code: 16 });
    expect((await u5.call('GET', '/messages/r1/reactions')).body).toMatchObject({ code: 16 });
    expect((await query(maria, 'r1')).body.reactions).toHaveLength(7);
  });
});
