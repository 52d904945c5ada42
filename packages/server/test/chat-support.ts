import { WebSocket } from 'ws';
import type { TestServer } from './helpers/server.js';
import { checkAnswer, checkFrame, learnCustomKeys } from './helpers/wire-contract.js';

/**
 * Helpers for chat tests: tokens, HTTP calls as a user, and real sockets that collect events. Every answer and every
 * frame is parsed with the protocol's schemas, strictly (helpers/wire-contract.ts): drift fails the test.
 */

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** Calls the chat API as a user (or with the given raw token / api key). */
export async function chatCall<T = Record<string, unknown>>(
  server: TestServer,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    rawBody?: string;
    apiKey?: string;
    query?: Record<string, string>;
    authType?: string;
  } = {},
): Promise<Reply<T>> {
  const url = new URL(`/chat${path}`, server.url);
  url.searchParams.set('api_key', options.apiKey ?? server.config.chatApiKey);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { 'auth-type': options.authType ?? 'jwt' };
  if (options.token) headers.authorization = options.token;
  let payload: string | undefined;
  if (options.rawBody !== undefined || options.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = options.rawBody ?? JSON.stringify(options.body);
    learnCustomKeys(options.body);
  }
  const res = await fetch(url, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
  const text = await res.text();
  const body: unknown = text ? JSON.parse(text) : {};
  checkAnswer(method, url.pathname, res.status, body);
  return { status: res.status, body: body as T };
}

/** A user's view of the chat: a token and shortcuts for the common calls. */
export interface ChatUserClient {
  id: string;
  token: string;
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    query?: Record<string, string>,
  ): Promise<Reply<T>>;
}

export async function chatUser(server: TestServer, id: string, name = id): Promise<ChatUserClient> {
  await server.app.chat.server.upsertUsers([{ id, name }]);
  const token = await server.app.chat.server.createToken(id);
  return {
    id,
    token,
    call: (method, path, body, query) =>
      chatCall(server, method, path, {
        token,
        ...(body !== undefined ? { body } : {}),
        ...(query ? { query } : {}),
      }),
  };
}

export type Frame = { type: string } & Record<string, unknown>;

/** A real WebSocket that records every frame and can wait for one. */
export interface ChatSocket {
  ws: WebSocket;
  frames: Frame[];
  first: Frame;
  /** Waits for the next frame (after those already seen by earlier waits) matching `type`. */
  next(type: string, timeoutMs?: number): Promise<Frame>;
  /** Resolves true if a frame of `type` arrives within `ms`. */
  receives(type: string, ms?: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function openSocket(
  server: TestServer,
  params: { token?: string; userId?: string; apiKey?: string; authType?: string; json?: unknown },
): Promise<ChatSocket> {
  const url = new URL('/chat/connect', server.wsUrl);
  url.searchParams.set('api_key', params.apiKey ?? server.config.chatApiKey);
  if (params.token) url.searchParams.set('authorization', params.token);
  if (params.userId) url.searchParams.set('user_id', params.userId);
  if (params.authType) url.searchParams.set('auth_type', params.authType);
  if (params.json !== undefined) url.searchParams.set('json', JSON.stringify(params.json));
  const ws = new WebSocket(url);
  const frames: Frame[] = [];
  const waiters: Array<() => void> = [];
  let broken: unknown;
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Frame;
    try {
      checkFrame(frame);
    } catch (err) {
      // Fails the waits of this socket and, in case nobody waits, the test file (an unhandled error).
      broken ??= err;
      queueMicrotask(() => {
        throw err;
      });
    }
    frames.push(frame);
    for (const w of waiters.splice(0)) w();
  });
  let cursor = 0;
  const waitFor = (pred: (f: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> =>
    new Promise((resolve) => {
      let done = false;
      const timer = setTimeout(() => {
        done = true;
        resolve(undefined);
      }, timeoutMs);
      const check = () => {
        if (done) return;
        for (let i = cursor; i < frames.length; i++) {
          const f = frames[i];
          if (f && pred(f)) {
            cursor = i + 1;
            done = true;
            clearTimeout(timer);
            resolve(f);
            return;
          }
        }
        waiters.push(check);
      };
      check();
    });
  const first = await waitFor(() => true, 5000);
  if (!first) throw new Error('no first frame on the socket');
  return {
    ws,
    frames,
    first,
    async next(type, timeoutMs = 5000) {
      const f = await waitFor((x) => x.type === type, timeoutMs);
      if (broken) throw broken;
      if (!f)
        throw new Error(
          `no ${type} frame within ${timeoutMs} ms; got ${frames.map((x) => x.type).join(', ')}`,
        );
      return f;
    },
    async receives(type, ms = 300) {
      const got = (await waitFor((x) => x.type === type, ms)) !== undefined;
      if (broken) throw broken;
      return got;
    },
    close: () =>
      new Promise((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
}
