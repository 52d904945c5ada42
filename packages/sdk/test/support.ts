import { checkAnswer, checkFrame, CustomKeys } from '@caseroom/protocol';
import { afterAll, beforeAll } from 'vitest';
import WebSocket from 'ws';
import { ChatClient, type ChatClientOptions } from '../src/index.js';

/**
 * The protocol as the contract on the wire (issue 13 §8): what the real server answers and sends these clients is
 * parsed with the protocol's schemas, strictly. A violation is thrown where the client would read it, and also as an
 * unhandled error, so a client that swallows a failed request cannot hide it.
 */
const customKeys = new CustomKeys();

function report(err: unknown): never {
  queueMicrotask(() => {
    throw err;
  });
  throw err;
}

/** `fetch` that checks every chat answer against its endpoint's response schema. */
export const checkedFetch: typeof fetch = async (input, init) => {
  if (typeof init?.body === 'string') customKeys.learn(JSON.parse(init.body) as unknown);
  const res = await fetch(input, init);
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  // Stored files (`/chat/files/...`) answer their bytes: only JSON answers are the protocol's.
  if (!(res.headers.get('content-type') ?? 'application/json').includes('json')) return res;
  const text = await res.clone().text();
  try {
    checkAnswer(
      init?.method ?? 'GET',
      url.pathname,
      res.status,
      text ? JSON.parse(text) : {},
      customKeys.options,
    );
  } catch (err) {
    report(err);
  }
  return res;
};

/** A `ws` WebSocket that checks every frame the server sends against its event's schema. */
export class CheckedWebSocket extends WebSocket {
  constructor(address: string | URL, protocols?: string | string[]) {
    super(address, protocols);
    this.on('message', (data: WebSocket.RawData) => {
      try {
        checkFrame(JSON.parse(String(data)) as unknown, customKeys.options);
      } catch (err) {
        report(err);
      }
    });
  }
}

/**
 * The parts of the server's test helper these suites use. The helper lives in the server package,
 * which references the SDK's TypeScript project, so it is loaded at run time rather than imported.
 */
export interface TestServer {
  url: string;
  config: { chatApiKey: string };
  app: {
    chat: {
      server: {
        createToken(userId: string): Promise<string>;
        upsertUsers(users: { id: string; name?: string }[]): Promise<unknown>;
      };
    };
  };
  close(): Promise<void>;
}

export interface TestServerHelper {
  startTestServer(options?: { databaseUrl?: string; productChatRules?: boolean }): Promise<TestServer>;
  createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }>;
}

const helperPath = '../../server/test/helpers/server.js';

export async function serverHelper(): Promise<TestServerHelper> {
  return (await import(/* @vite-ignore */ helperPath)) as TestServerHelper;
}

/** Waits (real time) until `check` holds. */
export async function until(check: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A client of `server` connected as `id` with the `ws` package. */
export async function connectTo(
  server: TestServer,
  id: string,
  options: Partial<ChatClientOptions> = {},
): Promise<ChatClient> {
  const client = new ChatClient({
    apiKey: server.config.chatApiKey,
    baseUrl: `${server.url}/chat`,
    WebSocket: CheckedWebSocket,
    fetch: checkedFetch,
    ...options,
  });
  await client.connectUser({ id }, () => server.app.chat.server.createToken(id));
  return client;
}

/**
 * A real server for one suite: started with `users` before the suite, closed after it, and every client that
 * `connect` made disconnected first.
 */
export function serverForSuite(users: { id: string; name?: string }[]): {
  server(): TestServer;
  connect(id: string): Promise<ChatClient>;
} {
  let server: TestServer | undefined;
  const clients: ChatClient[] = [];
  beforeAll(async () => {
    // The SDK's suites create channels as users: without the product's rules on `messaging` (tested with the
    // product).
    server = await (await serverHelper()).startTestServer({ productChatRules: false });
    await server.app.chat.server.upsertUsers(users);
  });
  afterAll(async () => {
    for (const client of clients) await client.disconnectUser();
    await server?.close();
  });
  const current = () => {
    if (!server) throw new Error('the suite server is not started yet');
    return server;
  };
  return {
    server: current,
    async connect(id) {
      const client = await connectTo(current(), id);
      clients.push(client);
      return client;
    },
  };
}
