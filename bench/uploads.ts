/**
 * Upload figures (issue 14): throughput of one 50 MB file through `POST /chat/channels/{type}/{id}/file`, and the
 * server's peak resident memory during 10 parallel uploads of 20 MB and of 50 MB each (it must not grow with the
 * file size: uploads are streamed to disk, never buffered).
 *
 *   npx tsx bench/uploads.ts            (the built server, packages/server/dist: `npm run build` first)
 *
 * The server runs as its own process (the bench's `startNode`, pinned to core 0) on a fresh PostgreSQL database, with
 * a temporary DATA_DIR (disk storage).
 * Files are random bytes (typed application/octet-stream), written to disk first and sent from disk
 * (`fs.openAsBlob`), so the client does not hold them in memory either. Prints the figures; writes nothing else.
 */
import { once } from 'node:events';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processTree, rssBytes } from './lib/proc.js';
import { API_KEY, chatApi, createDatabase, signToken, startNode } from './systems/caseroom.js';

const MB = 1024 * 1024;
const print = (line: string) => process.stdout.write(`${line}\n`);

async function writeRandomFile(file: string, bytes: number): Promise<void> {
  const out = fs.createWriteStream(file);
  for (let left = bytes; left > 0; left -= MB) {
    if (!out.write(crypto.randomBytes(Math.min(MB, left)))) await once(out, 'drain');
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'caseroom-bench-uploads-'));
  const db = await createDatabase('caseroom_bench_up');
  const node = await startNode(db.url, { core: 0, env: { DATA_DIR: path.join(work, 'data') } });
  const base = node.url;
  try {
    const server = signToken({ server: true });
    const user = 'bench-uploader';
    const call = async (route: string, body: unknown) => {
      const reply = await chatApi(node, 'POST', route, server, body);
      if (reply.status >= 300)
        throw new Error(`POST ${route}: ${reply.status} ${JSON.stringify(reply.body)}`);
    };
    await call('/users', { users: [{ id: user }] });
    await call('/channels/messaging/bench-uploads/query', { data: { members: [user] } });
    const userToken = signToken({ user_id: user });

    const upload = async (file: string): Promise<number> => {
      const form = new FormData();
      form.append('file', await fs.openAsBlob(file), path.basename(file));
      const started = performance.now();
      const res = await fetch(`${base}/chat/channels/messaging/bench-uploads/file?api_key=${API_KEY}`, {
        method: 'POST',
        headers: { authorization: userToken, 'auth-type': 'jwt' },
        body: form,
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`upload: ${res.status} ${text}`);
      return performance.now() - started;
    };

    const files: Record<number, string> = {};
    for (const size of [20, 50]) {
      files[size] = path.join(work, `random-${size}mb.bin`);
      await writeRandomFile(files[size], size * MB);
    }

    // Throughput: one 50 MB upload at a time, after one warm-up.
    await upload(files[50] as string);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push(await upload(files[50] as string));
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] as number;
    print(
      `50 MB upload: median ${(median / 1000).toFixed(2)} s = ${(50 / (median / 1000)).toFixed(1)} MB/s ` +
        `(best ${(50 / ((times[0] as number) / 1000)).toFixed(1)} MB/s, 5 runs)`,
    );

    // Memory: the server's resident set, sampled every 20 ms, during 10 parallel uploads of each size.
    const pids = () => processTree(node.child.pid as number);
    for (const size of [20, 50]) {
      const idle = rssBytes(pids());
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pids()))), 20);
      const started = performance.now();
      await Promise.all(Array.from({ length: 10 }, () => upload(files[size] as string)));
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, rssBytes(pids()));
      print(
        `10 × ${size} MB in parallel: ${seconds.toFixed(1)} s (${((10 * size) / seconds).toFixed(1)} MB/s total); ` +
          `server RSS before ${(idle / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB`,
      );
    }
  } finally {
    await node.stop();
    await db.drop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
