import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { buildApp, type App } from '../../src/app.js';
import { memoryBus, redisBus, type Bus } from '../../src/platform/bus.js';
import { loadConfig, type Config } from '../../src/platform/config.js';
import { openPglite, openPostgres, type Db } from '../../src/platform/db.js';
import { createLogger } from '../../src/platform/logger.js';
import { migrate } from '../../src/platform/migrate.js';

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
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    SEED_DEMO: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(options.redis ? { REDIS_URL: redisUrl } : {}),
    ...options.env,
  });
  const log = createLogger(config.logLevel);
  const db = databaseUrl ? openPostgres(databaseUrl) : await openPglite(undefined);
  await migrate(db);
  const bus = options.redis ? await redisBus(redisUrl, (err) => log.error({ err }, 'bus')) : memoryBus();
  const app = await buildApp({ config, db, bus, log });
  if (config.seedDemo) await app.product.seedDemo();
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.http.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    app,
    config: { ...config, port, publicUrl: `http://127.0.0.1:${port}` },
    db,
    bus,
    async close() {
      await app.chat.close();
      await app.http.close();
      await bus.close();
      await db.close();
      await dropDb?.();
    },
  };
}

/** Two nodes on one fresh PostgreSQL database and one Redis, as deployed behind a load balancer. */
export interface TwoNodes {
  a: TestServer;
  b: TestServer;
  close(): Promise<void>;
}

export async function startTwoNodes(env?: Record<string, string>, redisUrl?: string): Promise<TwoNodes> {
  const database = await createTestDatabase();
  const options = {
    databaseUrl: database.url,
    redis: true,
    ...(env ? { env } : {}),
    ...(redisUrl ? { redisUrl } : {}),
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
    },
  };
}
