import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, startTwoNodes, type TestServer, type TwoNodes } from './helpers/server.js';
import { startTestRedis, type TestRedis } from './helpers/redis-process.js';
import { chatCall, openSocket, type ChatSocket, type Frame } from './chat-support.js';

/**
 * Redis trouble degrades chat, it does not take it down (issue 13 §7). Two nodes on the test's OWN redis-server,
 * which the test stops and freezes: every request still answers (a hung one fails the test after {@link DEADLINE_MS}),
 * `/healthz` stays 200, `/readyz` names Redis while it is away, and cross-node delivery resumes once it is back.
 */
const DEADLINE_MS = 5000;

let redis: TestRedis;
let nodes: TwoNodes | undefined;
let a: TestServer;
let b: TestServer;
let mariaToken: string;
let noahToken: string;

/** The request's answer, or a failure naming it if none came within the deadline (a hung request). */
async function answered<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${DEADLINE_MS} ms`)),
      DEADLINE_MS,
    );
  });
  try {
    return await Promise.race([work, hung]);
  } finally {
    clearTimeout(timer);
  }
}

async function send(node: TestServer, token: string, id: string) {
  return answered(
    `send ${id}`,
    chatCall(node, 'POST', '/channels/messaging/outage/message', {
      token,
      body: { message: { id, text: id } },
    }),
  );
}

async function probe(node: TestServer, path: '/healthz' | '/readyz') {
  const res = await answered(`${path} of ${node.url}`, fetch(node.url + path));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Waits until both nodes report ready (Redis answers and their subscriptions stand again). */
async function bothReady(): Promise<void> {
  for (let i = 0; i < 150; i++) {
    const [ra, rb] = await Promise.all([probe(a, '/readyz'), probe(b, '/readyz')]);
    if (ra.status === 200 && rb.status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the nodes did not become ready again');
}

function newMessage(socket: ChatSocket, id: string): Promise<Frame> {
  return socket
    .next('message.new')
    .then((f) => ((f.message as { id: string }).id === id ? f : newMessage(socket, id)));
}

beforeAll(async () => {
  redis = await startTestRedis();
  nodes = await startTwoNodes(undefined, redis.url);
  ({ a, b } = nodes);
  await a.app.chat.server.upsertUsers([{ id: 'maria' }, { id: 'noah' }]);
  await a.app.chat.server.getOrCreateChannel('messaging', 'outage', { members: ['maria', 'noah'] }, 'maria');
  mariaToken = await a.app.chat.server.createToken('maria');
  noahToken = await b.app.chat.server.createToken('noah');
});

afterAll(async () => {
  redis?.thaw();
  await nodes?.close();
  await redis?.stop();
});

describe('Redis stopped', () => {
  it('answers every send, keeps /healthz up, names redis on /readyz, and fans out again once Redis is back', async () => {
    const mariaOnA = await openSocket(a, { token: mariaToken });
    const noahOnB = await openSocket(b, { token: noahToken });

    await redis.stop();
    for (let i = 0; i < 10; i++) {
      expect((await send(a, mariaToken, `down-a-${i}`)).status).toBe(200);
      expect((await send(b, noahToken, `down-b-${i}`)).status).toBe(200);
    }
    // Each node still serves its own sockets.
    expect(await newMessage(mariaOnA, 'down-a-9')).toMatchObject({ cid: 'messaging:outage' });
    expect(await newMessage(noahOnB, 'down-b-9')).toMatchObject({ cid: 'messaging:outage' });
    for (const node of [a, b]) {
      expect(await probe(node, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
      const ready = await probe(node, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({
        status: 'degraded',
        checks: { database: 'ok', redis: 'down', storage: 'ok' },
        degraded: ['redis'],
      });
    }

    // A node that starts while Redis is away comes up and serves too.
    const c = await startTestServer({ databaseUrl: a.config.databaseUrl!, redis: true, redisUrl: redis.url });
    try {
      expect((await send(c, mariaToken, 'down-c')).status).toBe(200);
    } finally {
      await c.close();
    }

    await redis.start();
    await bothReady();
    expect(await probe(a, '/readyz')).toEqual({
      status: 200,
      body: { status: 'ok', checks: { database: 'ok', redis: 'ok', storage: 'ok' } },
    });
    expect((await send(a, mariaToken, 'back-a')).status).toBe(200);
    expect(await newMessage(noahOnB, 'back-a')).toMatchObject({ cid: 'messaging:outage' });
    expect((await send(b, noahToken, 'back-b')).status).toBe(200);
    expect(await newMessage(mariaOnA, 'back-b')).toMatchObject({ cid: 'messaging:outage' });
    await mariaOnA.close();
    await noahOnB.close();
  });
});

describe('Redis frozen (SIGSTOP)', () => {
  it('answers every request within the deadline while Redis answers nothing', async () => {
    // The nodes are ready again since the end of the test before.
    redis.freeze();
    try {
      for (let i = 0; i < 5; i++) {
        expect((await send(a, mariaToken, `frozen-a-${i}`)).status).toBe(200);
        expect((await send(b, noahToken, `frozen-b-${i}`)).status).toBe(200);
      }
      const query = await answered(
        'query channels',
        chatCall(b, 'POST', '/channels', {
          token: noahToken,
          body: { filter_conditions: { cid: 'messaging:outage' } },
        }),
      );
      expect(query.status).toBe(200);
      const limits = await answered('rate limits', chatCall(a, 'GET', '/rate_limits', { token: mariaToken }));
      expect(limits.status).toBe(200);
      const socket = await answered('a new socket', openSocket(a, { token: mariaToken }));
      expect(socket.first).toMatchObject({ type: 'health.check', me: { id: 'maria' } });
      await socket.close();
      expect((await probe(a, '/healthz')).status).toBe(200);
      const ready = await probe(b, '/readyz');
      expect(ready).toMatchObject({ status: 503, body: { checks: { redis: 'down' }, degraded: ['redis'] } });
    } finally {
      redis.thaw();
    }
    await bothReady();
  });
});
