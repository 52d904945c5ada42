import type { Bus } from './bus.js';
import type { Config } from './config.js';
import type { Db } from './db.js';
import type { Logger } from './logger.js';
import type { FileStorage } from './storage/index.js';

/** The shared platform every module is built on. */
export interface Platform {
  config: Config;
  db: Db;
  bus: Bus;
  log: Logger;
  /** Stored files (chat uploads): disk under `DATA_DIR/files`, or S3 when `S3_*` is set. */
  storage: FileStorage;
}
