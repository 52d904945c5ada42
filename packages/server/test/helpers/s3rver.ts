import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { freePort } from './process.js';

/** s3rver's fixed credentials: it checks every request's signature against them. */
export const S3RVER_ACCESS_KEY_ID = 'S3RVER';
export const S3RVER_SECRET_ACCESS_KEY = 'S3RVER';

export interface LocalS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** The `S3_*` variables that point the server at this store and `bucket` (created by {@link createBucket}). */
  env(bucket: string, extra?: Record<string, string>): Record<string, string>;
  createBucket(bucket: string): Promise<void>;
  /** What s3rver printed (for a failing test's message). */
  output(): string;
  close(): Promise<void>;
}

/**
 * Runs a real S3 implementation (`s3rver`, the S3 REST API over files in a temporary directory) in a child process on
 * a free loopback port. A child process, so the test's own memory figures are not mixed with the store's.
 *
 * `--openssl-legacy-provider`: s3rver 3.7.1 encrypts ListObjectsV2 continuation tokens with DES, which OpenSSL 3
 * (Node 17+) only offers through the legacy provider; without it every paginated listing answers 500.
 */
export async function startS3rver(): Promise<LocalS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'caseroom-s3rver-'));
  const port = await freePort();
  const bin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', bin, '-d', dir, '-a', '127.0.0.1', '-p', String(port), '--silent'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!out.includes('S3rver listening on')) {
    if (child.exitCode !== null) throw new Error(`s3rver exited with ${child.exitCode}:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`s3rver did not listen within 20 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_ACCESS_KEY_ID, secretAccessKey: S3RVER_SECRET_ACCESS_KEY },
  });
  return {
    endpoint,
    env: (bucket, extra = {}) => ({
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: S3RVER_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: S3RVER_SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: '1',
      ...extra,
    }),
    async createBucket(bucket) {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    },
    output: () => out,
    async close() {
      client.destroy();
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
