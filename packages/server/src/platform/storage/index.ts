import path from 'node:path';
import { diskStorage } from './disk.js';
import type { FileStorage } from './types.js';

export type { ByteRange, FileStorage, StoredObject } from './types.js';
export { assertSafeKey } from './types.js';
export { diskStorage } from './disk.js';

/**
 * The storage the configuration names: disk under `DATA_DIR/files` unless `S3_*` is set (the S3 store is added by
 * `./s3.ts`).
 */
export function openStorage(config: { dataDir: string }): FileStorage {
  return diskStorage(path.join(config.dataDir, 'files'));
}
