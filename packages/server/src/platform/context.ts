import type { Bus } from './bus.js';
import type { Config } from './config.js';
import type { Db } from './db.js';
import type { Logger } from './logger.js';

/** The shared platform every module is built on. */
export interface Platform {
  config: Config;
  db: Db;
  bus: Bus;
  log: Logger;
}
