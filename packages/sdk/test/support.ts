import { afterAll, beforeAll } from 'vitest';
import WebSocket from 'ws';
import { ChatClient, type ChatClientOptions } from '../src/index.js';

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
    WebSocket,
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
