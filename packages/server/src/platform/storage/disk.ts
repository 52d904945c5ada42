import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { assertSafeKey, type ByteRange, type FileStorage, type StoredObject } from './types.js';

/**
 * Files on disk under one root directory. A write goes to a temporary file first and is renamed into place, so a
 * reader never sees half a file and a failed upload leaves nothing behind. The content type is not kept on disk
 * (the database row holds it).
 */
export function diskStorage(root: string): FileStorage {
  const fileOf = (key: string): string => {
    assertSafeKey(key);
    return path.join(root, ...key.split('/'));
  };

  return {
    kind: 'disk',

    async put(key, body) {
      const target = fileOf(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temp = path.join(path.dirname(target), `.${randomUUID()}.part`);
      let size = 0;
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      source.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      try {
        await pipeline(source, createWriteStream(temp, { flags: 'wx' }));
        await fs.rename(temp, target);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
      return size;
    },

    async stat(key): Promise<StoredObject | undefined> {
      try {
        const info = await fs.stat(fileOf(key));
        return info.isFile() ? { key, size: info.size, contentType: undefined } : undefined;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async get(key, range?: ByteRange) {
      const file = fileOf(key);
      try {
        await fs.access(file);
      } catch {
        return undefined;
      }
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },

    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },

    async deletePrefix(prefix) {
      const clean = prefix.replace(/\/+$/, '');
      const target = fileOf(clean);
      await fs.rm(target, { recursive: true, force: true });
    },

    async check() {
      await fs.mkdir(root, { recursive: true });
      await fs.access(root, fs.constants.W_OK);
    },
  };
}
