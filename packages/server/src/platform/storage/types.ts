import type { Readable } from 'node:stream';

/** Facts about one stored object. */
export interface StoredObject {
  key: string;
  size: number;
  contentType: string | undefined;
}

/** A byte range to read (inclusive `end`, as HTTP `Range` has it). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where the server keeps files (chat uploads, thumbnails, resized images): on disk under `DATA_DIR/files` by
 * default, or in any S3-compatible store when `S3_*` is set. Keys are the server's own (`[A-Za-z0-9/_.-]`, no `..`);
 * nothing user-chosen becomes a path. Objects are private: the store is never exposed, the chat routes serve them
 * after the access check.
 */
export interface FileStorage {
  /** `disk` or `s3`, for logs and health. */
  readonly kind: 'disk' | 's3';
  /** Streams `body` into `key` (replacing it); resolves with the number of bytes written. Never buffers it whole. */
  put(key: string, body: Readable | Buffer, options?: { contentType?: string }): Promise<number>;
  /** The object's size and type, or undefined when there is none. */
  stat(key: string): Promise<StoredObject | undefined>;
  /** A stream of the object (or of `range`), or undefined when there is none. */
  get(key: string, range?: ByteRange): Promise<Readable | undefined>;
  /** Removes the object; no error when it is already gone. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (a file and its variants). */
  deletePrefix(prefix: string): Promise<void>;
  /** Whether the store answers (for `/readyz`). */
  check(): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9/_.-]{0,511}$/;

/** Refuses keys that could escape the store's root (defence in depth: keys are made by the server). */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
  }
}
