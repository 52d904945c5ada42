import path from 'node:path';
import { memoryBus, redisBus, type Bus } from './bus.js';
import type { Config } from './config.js';
import { openPglite, openPostgres, type Db } from './db.js';
import type { Logger } from './logger.js';
import { migrate } from './migrate.js';

/** Opens the database named by the config (PGlite under DATA_DIR, or DATABASE_URL) and migrates it. */
export async function openDatabase(config: Config, log: Logger): Promise<Db> {
  const db = config.databaseUrl
    ? openPostgres(config.databaseUrl, config.databasePoolMax)
    : await openPglite(path.join(config.dataDir, 'pglite'));
  const applied = await migrate(db);
  log.info({ database: db.kind, applied }, 'database ready');
  return db;
}

export async function openBus(config: Config, log: Logger): Promise<Bus> {
  if (!config.redisUrl) return memoryBus();
  // One line when Redis goes away and one when it is back: chat keeps serving each node's own sockets meanwhile.
  return redisBus(config.redisUrl, {
    onError: (err) => log.error({ err }, 'redis bus error: events reach only this node until Redis is back'),
    onState: (state, missed) => {
      if (state === 'up') log.warn({ missed }, 'redis bus back: events reach every node again');
    },
  });
}
