import path from 'node:path';
import { diskStorage } from './disk.js';
import { s3Storage, type S3Settings } from './s3.js';
import type { FileStorage } from './types.js';

export type { ByteRange, FileStorage, StoredObject } from './types.js';
export type { S3Settings } from './s3.js';
export { assertSafeKey } from './types.js';
export { diskStorage } from './disk.js';
export { s3Storage } from './s3.js';

/** The storage the configuration names: the S3 store when `S3_BUCKET` is set, else disk under `DATA_DIR/files`. */
export function openStorage(config: { dataDir: string; s3?: S3Settings | undefined }): FileStorage {
  return config.s3 ? s3Storage(config.s3) : diskStorage(path.join(config.dataDir, 'files'));
}
