import { CHAT_ENDPOINTS, type ChatEndpoint } from '@caseroom/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signChatToken } from '../src/chat/auth.js';
import { REFUSED_VALUE } from '../src/chat/index.js';
import { arbitraryFor, hostileString, type Plausible } from './bad-input-arbitraries.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatCall, chatUser } from './chat-support.js';

/**
 * Property (issue 13 §6): whatever a client sends to any endpoint of the chat API — every entry of the protocol's
 * endpoint table, so a new endpoint is covered without touching this file — the answer is never a 5xx, and never
 * the database's own refusal caught by the safety net (REFUSED_VALUE): the schemas and the filter validator must
 * have named the bad field first. Inputs follow each endpoint's request schema field by field, with wrong types,
 * Object.prototype names, NUL and unpaired surrogates, deep nesting, huge and far-future dates and oversized
 * custom data. One server per backend; BAD_INPUT_RUNS requests per endpoint and backend (default 12).
 */

const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 12);

/** Endpoints with a `?payload=<JSON>` query carry their body schema in it (users, members, search). */
const takesPayload = (e: ChatEndpoint) =>
  e.query !== undefined && 'payload' in ((e.query as unknown as { shape?: object }).shape ?? {});

interface Fixture {
  channel: string;
  message: string;
  victim: string;
}

interface Request {
  asServer: boolean;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

function pathValue(param: string, path: string, fx: Fixture): string {
  if (param === 'type') return 'messaging';
  if (param === 'userId') return 'ana';
  if (param === 'name') return path.includes('channeltypes') ? 'fuzz' : 'fuzz-name';
  if (path.startsWith('/chat/channels/')) return fx.channel;
  if (path.startsWith('/chat/messages/') || path.startsWith('/chat/threads/')) return fx.message;
  if (path.startsWith('/chat/users/')) return fx.victim;
  return 'x';
}

/** Percent-encodes a path segment; an unpaired surrogate goes as the bytes of its (invalid) UTF-8 form. */
const encodeSegment = (s: string) =>
  s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[^]/g, (c) =>
    /^[\uD800-\uDFFF]$/.test(c) ? '%ED%A0%80' : encodeURIComponent(c),
  );

const asQueryValue = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

function requestArbitrary(endpoint: ChatEndpoint, fx: Fixture): fc.Arbitrary<Request> {
  const plausible: Plausible = {
    strings: [
      'messaging',
      fx.channel,
      `messaging:${fx.channel}`,
      fx.message,
      fx.victim,
      'like',
      '2024-01-01T00:00:00Z',
      'x',
    ],
  };
  const params = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const pathArb = fc
    .tuple(
      ...params.map((p) =>
        fc.oneof({ weight: 4, arbitrary: fc.constant(pathValue(p, endpoint.path, fx)) }, hostileString),
      ),
    )
    .map((values) =>
      params.reduce(
        (path, p, i) => path.replace(`{${p}}`, encodeSegment(values[i] as string) || 'x'),
        endpoint.path.replace(/^\/chat/, ''),
      ),
    );
  const payload = takesPayload(endpoint);
  const queryArb: fc.Arbitrary<Record<string, string>> =
    payload && endpoint.body
      ? arbitraryFor(endpoint.body, plausible).map((v) => ({ payload: asQueryValue(v) }))
      : endpoint.query
        ? arbitraryFor(endpoint.query, plausible).map((v) =>
            typeof v === 'object' && v !== null && !Array.isArray(v)
              ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asQueryValue(x)]))
              : {},
          )
        : fc.constant({});
  const bodyArb = !payload && endpoint.body ? arbitraryFor(endpoint.body, plausible) : fc.constant(undefined);
  return fc.record({ asServer: fc.boolean(), path: pathArb, query: queryArb, body: bodyArb });
}

describe.each(['postgres', 'pglite'] as const)('no 5xx for generated bad input (%s)', (database) => {
  let server: TestServer;
  let userToken: string;
  let serverToken: string;
  let fixtures = 0;
  /** Answers by HTTP status (printed with BAD_INPUT_STATS=1, to see how much passes validation). */
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    server = await startTestServer({
      database,
      env: { CHAT_RATE_LIMITS: 'off', LOG_LEVEL: process.env.LOG_LEVEL ?? 'fatal' },
    });
    userToken = (await chatUser(server, 'ana')).token;
    serverToken = await signChatToken(server.config, { server: true });
  }, 60_000);

  afterAll(async () => {
    if (process.env.BAD_INPUT_STATS) {
      process.stdout.write(`${database} ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`);
    }
    await server?.close();
  });

  /** A channel, a message and another user of its own for each endpoint (some endpoints delete them). */
  async function fixture(): Promise<Fixture> {
    const n = ++fixtures;
    const fx = { channel: `fz${n}`, message: `fz${n}-m`, victim: `v${n}` };
    await server.app.chat.server.upsertUsers([{ id: fx.victim, name: fx.victim }]);
    await server.app.chat.server.getOrCreateChannel(
      'messaging',
      fx.channel,
      { members: ['ana', fx.victim] },
      'ana',
    );
    await server.app.chat.server.sendMessage(`messaging:${fx.channel}`, 'ana', {
      id: fx.message,
      text: 'hi',
    });
    return fx;
  }

  const endpoints = CHAT_ENDPOINTS.filter((e) => e.path !== '/chat/connect');

  it('covers every endpoint of the protocol table but the WebSocket', () => {
    expect(endpoints.length).toBe(CHAT_ENDPOINTS.length - 1);
  });

  it.each(endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))('%s', async (_name, endpoint) => {
    const fx = await fixture();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(endpoint, fx), async (req) => {
        const res = await chatCall(server, endpoint.method, req.path, {
          token: req.asServer ? serverToken : userToken,
          query: req.query,
          ...(req.body !== undefined && endpoint.method !== 'GET' ? { body: req.body } : {}),
        });
        const what = `${endpoint.method} ${req.path} ${JSON.stringify(req.query).slice(0, 300)} ${JSON.stringify(req.body)?.slice(0, 300)} -> ${JSON.stringify(res.body).slice(0, 300)}`;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (process.env.BAD_INPUT_DEBUG) process.stdout.write(`${what}\n`);
        expect(res.status, what).toBeLessThan(500);
        if (res.status === 400)
          expect((res.body as { message?: unknown }).message, what).not.toBe(REFUSED_VALUE);
      }),
      { numRuns: RUNS },
    );
  });
});
