import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type App } from '../../src/app.js';
import { memoryBus, redisBus, type Bus } from '../../src/platform/bus.js';
import { loadConfig, type Config } from '../../src/platform/config.js';
import { openPglite, openPostgres, type Db } from '../../src/platform/db.js';
import { createLogger } from '../../src/platform/logger.js';
import { openStorage } from '../../src/platform/storage/index.js';
import { migrate } from '../../src/platform/migrate.js';
import { PRODUCT_CHAT_RULES } from '../../src/product/chat-rules.js';
import { freePort } from './process.js';

/** The machine's PostgreSQL server (trust auth); each test server gets a database of its own in it. */
export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `ws://127.0.0.1:<port>` */
  wsUrl: string;
  app: App;
  config: Config;
  db: Db;
  bus: Bus;
  /** What the server logged, when started with `captureLog` (else empty). */
  logText(): string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** `postgres` (default): a fresh database on the machine's server. `pglite`: in memory. */
  database?: 'postgres' | 'pglite';
  /** Reuse this database URL instead of creating a fresh one (two nodes on one database). */
  databaseUrl?: string;
  /** Use Redis pub/sub for the bus (two nodes). */
  redis?: boolean;
  /** The Redis to use when `redis` is set (a test's own redis-server); the machine's shared one by default. */
  redisUrl?: string;
  env?: Record<string, string>;
  /**
   * `false`: the chat service as an installation without the product sees it — the product's per-type chat rules
   * (no user-created channels or member changes on `messaging`/`team`, no edits of others' messages on `messaging`,
   * `src/product/chat-rules.ts`) are dropped after start. Chat's own suites test chat's built-in rules this way; the
   * product's rules are tested with the product (`product-chat-trust.test.ts`, the authorization matrices).
   */
  productChatRules?: boolean;
  /** The address to listen on (default `127.0.0.1`; `0.0.0.0` to be reached on the machine's other addresses). */
  host?: string;
  /** Keep the server's log lines in memory (read with `logText()`) instead of writing them to stdout. */
  captureLog?: boolean;
}

/** Creates an empty PostgreSQL database and answers its URL; `drop` removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `caseroom_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Starts a real server on an ephemeral loopback port, migrated, without demo data unless `SEED_DEMO=1`. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  let dropDb: (() => Promise<void>) | undefined;
  let databaseUrl = options.databaseUrl;
  if (!databaseUrl && (options.database ?? 'postgres') === 'postgres') {
    const created = await createTestDatabase();
    databaseUrl = created.url;
    dropDb = created.drop;
  }
  const redisUrl = options.redisUrl ?? TEST_REDIS_URL;
  // The port is chosen before the app is built: mail links are made from PUBLIC_URL, which must name it.
  const port = await freePort();
  // Stored files go to a directory of the test's own (two nodes share one through `env.DATA_DIR`), removed on close.
  const ownDataDir = options.env?.DATA_DIR
    ? undefined
    : fs.mkdtempSync(path.join(os.tmpdir(), 'caseroom-test-'));
  const config = loadConfig({
    ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
    NODE_ENV: 'test',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SEED_DEMO: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(options.redis ? { REDIS_URL: redisUrl } : {}),
    ...options.env,
  });
  let captured = '';
  const log = createLogger(
    config.logLevel,
    options.captureLog ? { write: (line: string) => void (captured += line) } : undefined,
  );
  const db = databaseUrl ? openPostgres(databaseUrl) : await openPglite(undefined);
  await migrate(db);
  const bus = options.redis ? await redisBus(redisUrl, (err) => log.error({ err }, 'bus')) : memoryBus();
  const app = await buildApp({ config, db, bus, log, storage: openStorage(config) });
  if (options.productChatRules === false) {
    await db.query('DELETE FROM chat_permissions WHERE id = ANY($1)', [PRODUCT_CHAT_RULES.map((r) => r.id)]);
  }
  if (config.seedDemo) await app.product.seedDemo();
  if (config.production) await app.product.disableDemoPasswords();
  await app.http.listen({ port, host: options.host ?? '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    app,
    config,
    db,
    bus,
    logText: () => captured,
    async close() {
      await app.chat.close();
      // A client that never read a response body (a file download) keeps its connection busy, and close() would
      // wait for it: the test is over, so every connection is cut.
      const closing = app.http.close();
      app.http.server.closeAllConnections();
      await closing;
      await bus.close();
      await db.close();
      await dropDb?.();
      if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

/** Two nodes on one fresh PostgreSQL database and one Redis, as deployed behind a load balancer. */
export interface TwoNodes {
  a: TestServer;
  b: TestServer;
  close(): Promise<void>;
}

export async function startTwoNodes(
  env?: Record<string, string>,
  redisUrl?: string,
  more: Pick<TestServerOptions, 'productChatRules'> = {},
): Promise<TwoNodes> {
  const database = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'caseroom-test-'));
  const options = {
    databaseUrl: database.url,
    redis: true,
    env: { DATA_DIR: dataDir, ...env },
    ...(redisUrl ? { redisUrl } : {}),
    ...more,
  };
  const a = await startTestServer(options);
  const b = await startTestServer(options);
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
