import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  API_SECRET,
  createDatabase as createBenchDatabase,
  freePort,
  signToken,
} from '../../bench/systems/caseroom.js';

/**
 * The cluster under test: a fresh PostgreSQL database, a private `redis-server` (never the shared one on 6379),
 * and N real server processes (`packages/server/dist/main.js`) that can be SIGKILLed and started again.
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_MAIN = path.join(ROOT, 'packages/server/dist/main.js');
export const API_KEY = 'chaos-key';

/** The bench's helpers serve here too: the run's chat secret and its tokens, free ports, fresh databases. */
export { freePort, signToken };

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A fresh database on the machine's PostgreSQL (`BENCH_PG_URL`), dropped by `drop()`. */
export function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return createBenchDatabase('caseroom_chaos');
}

/** Resolves once `port` answers a Redis PING with PONG. */
async function redisPong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** A private redis-server on a free port, without persistence; `stop` shuts it down, `start` brings it back. */
export class PrivateRedis {
  private child: ChildProcess | undefined;
  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.child = child;
    await waitFor(() => redisPong(this.port), 10_000, `redis-server on ${this.port}`);
  }

  /** SIGKILL: every connection drops, every published message in between is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }

  /** SIGSTOP / SIGCONT: connections stay open, nothing answers. */
  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.child?.kill('SIGCONT');
  }
}

/** One server process; `kill()` is SIGKILL, `start()` starts it again on the same port. */
export class ServerNode {
  private child: ChildProcess | undefined;
  private out = '';
  up = false;
  starts = 0;

  constructor(
    readonly index: number,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The last 20 kB of the node's output, over all its lives. */
  output(): string {
    return this.out;
  }

  async start(): Promise<void> {
    this.starts++;
    const child = spawn(process.execPath, [SERVER_MAIN], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, PORT: String(this.port), PUBLIC_URL: this.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (d: Buffer) => (this.out = (this.out + d.toString()).slice(-20_000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    await waitFor(
      async () => {
        if (child.exitCode !== null)
          throw new Error(`node ${this.index} exited with ${child.exitCode}:\n${this.out}`);
        try {
          return (await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(1000) })).status === 200;
        } catch {
          return false;
        }
      },
      60_000,
      `node ${this.index} /healthz`,
    );
    this.up = true;
  }

  async kill(signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<void> {
    this.up = false;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
  }
}

export interface Cluster {
  nodes: ServerNode[];
  redis: PrivateRedis;
  databaseUrl: string;
  close(): Promise<void>;
}

/** Database, private Redis and `count` nodes, started one after the other (the first one migrates). */
export async function startCluster(count: number): Promise<Cluster> {
  if (!fs.existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run npm run build first`);
  const db = await createDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'caseroom-chaos-'));
  const nodes: ServerNode[] = [];
  let redis: PrivateRedis | undefined;
  const close = async () => {
    for (const n of nodes) await n.kill('SIGTERM');
    await redis?.stop();
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    redis = await PrivateRedis.start();
    const env = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      CHAT_API_KEY: API_KEY,
      CHAT_API_SECRET: API_SECRET,
      AUTH_SECRET: crypto.randomBytes(24).toString('hex'),
      SEED_DEMO: '0',
      CHAT_RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
    };
    for (let i = 0; i < count; i++) {
      const node = new ServerNode(i, await freePort(), env);
      nodes.push(node);
      await node.start();
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { nodes, redis, databaseUrl: db.url, close };
}
