/**
 * Upload figures (issue 14): throughput of one 50 MB file through `POST /chat/channels/{type}/{id}/file`, and the
 * server's peak resident memory during 10 parallel uploads of 20 MB and of 50 MB each (it must not grow with the
 * file size: uploads are streamed to disk, never buffered).
 *
 *   npx tsx bench/uploads.ts            (the built server when packages/server/dist exists, else the sources via tsx)
 *
 * The server runs as its own process on a fresh PostgreSQL database, with a temporary DATA_DIR (disk storage).
 * Files are random bytes (typed application/octet-stream), written to disk first and sent from disk
 * (`fs.openAsBlob`), so the client does not hold them in memory either. Prints the figures; writes nothing else.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitHealthy } from './lib/http.js';
import { processTree, rssBytes } from './lib/proc.js';
import { createDatabase, freePort, ROOT, SERVER_MAIN } from './systems/caseroom.js';

const API_KEY = 'bench-key';
const SECRET = crypto.randomBytes(24).toString('hex');
const MB = 1024 * 1024;
const print = (line: string) => process.stdout.write(`${line}\n`);

function token(claims: Record<string, unknown>): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ ...claims, iat: Math.floor(Date.now() / 1000) - 10 })}`;
  return `${head}.${crypto.createHmac('sha256', SECRET).update(head).digest('base64url')}`;
}

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
  const port = await freePort();
  const built = fs.existsSync(SERVER_MAIN);
  const entry = built ? [SERVER_MAIN] : ['--import', 'tsx', path.join(ROOT, 'packages/server/src/main.ts')];
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: db.url,
      REDIS_URL: '',
      CHAT_API_KEY: API_KEY,
      CHAT_API_SECRET: SECRET,
      AUTH_SECRET: crypto.randomBytes(24).toString('hex'),
      SEED_DEMO: '0',
      CHAT_RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      DATA_DIR: path.join(work, 'data'),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(`${base}/healthz`, 120_000, () => child.exitCode === null);
    const server = token({ server: true });
    const user = 'bench-uploader';
    const call = async (method: string, route: string, auth: string, body?: unknown) => {
      const res = await fetch(`${base}/chat${route}?api_key=${API_KEY}`, {
        method,
        headers: { authorization: auth, 'auth-type': 'jwt', 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    await call('POST', '/users', server, { users: [{ id: user }] });
    await call('POST', '/channels/messaging/bench-uploads/query', server, { data: { members: [user] } });
    const userToken = token({ user_id: user });

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
    const pids = () => processTree(child.pid as number);
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
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    if (child.exitCode === null) child.kill('SIGKILL');
    await db.drop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
