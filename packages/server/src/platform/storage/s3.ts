import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertSafeKey, type FileStorage, type StoredObject } from './types.js';

/** Where and how to reach the S3-compatible store (from `S3_*`, see `platform/config.ts`). */
export interface S3Settings {
  bucket: string;
  /** A non-AWS endpoint (MinIO, Ceph, Garage, s3rver…); AWS itself when undefined. */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (most self-hosted stores want it). */
  forcePathStyle: boolean;
  /** Put before every key (`caseroom/` → `caseroom/<key>`), so one bucket can hold other things too; '' for none. */
  prefix: string;
}

/** Internals a test may turn down (the page size, to see pagination with a handful of objects). */
export interface S3Tuning {
  /** Keys listed (and deleted) per request by `deletePrefix`; S3's maximum is 1,000. */
  pageSize?: number;
  /** Size of each part of a multipart upload (S3's minimum, 5 MiB, by default). */
  partSize?: number;
}

/**
 * S3's smallest multipart part. An upload holds a few of these in memory at once (those in flight, the one filling
 * and its concatenation): 15 to 27 MiB measured, whatever the body's size.
 */
const PART_SIZE = 5 * 1024 * 1024;
/** Parts uploaded in parallel per `put` (1 measured about 17 MiB at most, but stalls the body during each part). */
const QUEUE_SIZE = 2;

function isMissing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}

/**
 * Files in one bucket of any S3-compatible store. Writes stream through `@aws-sdk/lib-storage`'s `Upload`
 * (a multipart upload for anything over one part), so the memory a `put` holds is a few parts whatever the body's
 * size; S3 makes an object visible only once the upload completes, and a failed upload is aborted, so a reader never
 * sees half a file. The content type is kept as the object's `Content-Type`. Objects stay private (no ACL is set).
 */
export function s3Storage(settings: S3Settings, tuning: S3Tuning = {}): FileStorage {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    // Checksums only where S3 requires them: many S3-compatible stores refuse the newer default (a CRC32 trailer in
    // an `aws-chunked` body), and TLS plus the signature already guard the bytes in transit.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const root = settings.prefix.replace(/^\/+|\/+$/g, '');
  const objectKey = (key: string): string => {
    assertSafeKey(key);
    return root ? `${root}/${key}` : key;
  };
  const pageSize = Math.min(tuning.pageSize ?? 1000, 1000);
  const partSize = Math.max(tuning.partSize ?? PART_SIZE, PART_SIZE);

  const deleteKeys = async (keys: string[]): Promise<void> => {
    if (keys.length === 0) return;
    const out = await client.send(
      new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
    );
    const failed = out.Errors ?? [];
    if (failed.length > 0) {
      throw new Error(
        `S3 refused to delete ${failed.length} object(s): ${failed[0]?.Key ?? '?'} (${failed[0]?.Code ?? '?'})`,
      );
    }
  };

  return {
    kind: 's3',

    async put(key, body, options) {
      const Key = objectKey(key);
      let size = 0;
      let source: Readable | Buffer = body;
      let piping: Promise<void> = Promise.resolve();
      if (!Buffer.isBuffer(body)) {
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            size += chunk.length;
            done(null, chunk);
          },
        });
        piping = pipeline(body, counter);
        source = counter;
      } else {
        size = body.length;
      }
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: source, ContentType: options?.contentType },
        partSize,
        queueSize: QUEUE_SIZE,
      });
      try {
        await Promise.all([upload.done(), piping]);
      } catch (error) {
        // Stop reading the body (the caller's request) and drop any parts already sent.
        if (!Buffer.isBuffer(body)) body.destroy();
        await upload.abort().catch(() => undefined);
        throw error;
      }
      return size;
    },

    async stat(key): Promise<StoredObject | undefined> {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return { key, size: head.ContentLength ?? 0, contentType: head.ContentType };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async get(key, range) {
      try {
        const out = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: objectKey(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        // In Node the body is the response's IncomingMessage, a Readable.
        return out.Body as Readable | undefined;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async delete(key) {
      // S3 answers 204 for a key that is not there: deleting twice is fine.
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },

    async deletePrefix(prefix) {
      // As on disk, `a/1` means the object `a/1` and everything under `a/1/`, never `a/10`.
      const clean = prefix.replace(/\/+$/, '');
      const exact = objectKey(clean);
      await deleteKeys([exact]);
      const pages = paginateListObjectsV2({ client, pageSize }, { Bucket, Prefix: `${exact}/` });
      for await (const page of pages) {
        await deleteKeys((page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])));
      }
    },

    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
}
