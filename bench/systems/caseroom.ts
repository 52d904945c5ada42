import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Driver, IdleClient, Mark, OnMark, RoomClient } from '../lib/driver.js';
import { markText, scanMarks } from '../lib/driver.js';
import { httpJson, waitHealthy } from '../lib/http.js';
import { LiteSocket } from '../lib/ws-lite.js';
import { pidsNamed, processTree } from '../lib/proc.js';
import { loopbackSource, pool } from '../lib/stats.js';

/** Caseroom as the bench runs it: the built server process, pinned to the server core, on PostgreSQL. */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_MAIN = path.join(ROOT, 'packages/server/dist/main.js');
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export const API_KEY = 'bench-key';
/** This run's chat secret (also the chaos suite's: its nodes are started with it). */
export const API_SECRET = crypto.randomBytes(24).toString('hex');

/** An HS256 JWT with the given claims, signed with the bench's chat secret. */
export function signToken(claims: Record<string, unknown>): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ ...claims, iat: Math.floor(Date.now() / 1000) - 10 })}`;
  return `${head}.${crypto.createHmac('sha256', API_SECRET).update(head).digest('base64url')}`;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A fresh database on the machine's PostgreSQL, named `<prefix>_<random>`. */
export async function createDatabase(
  prefix = 'caseroom_bench',
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface CaseroomNode {
  url: string;
  wsUrl: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `node packages/server/dist/main.js` pinned to `core`; waits for /healthz. */
export async function startNode(
  databaseUrl: string,
  options: { core: number; redis?: boolean; nodeArgs?: string[]; cwd?: string; env?: Record<string, string> },
): Promise<CaseroomNode> {
  const port = await freePort();
  const child = spawn(
    'taskset',
    ['-c', String(options.core), process.execPath, ...(options.nodeArgs ?? []), SERVER_MAIN],
    {
      cwd: options.cwd ?? ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: databaseUrl,
        ...(options.redis ? { REDIS_URL } : { REDIS_URL: '' }),
        CHAT_API_KEY: API_KEY,
        CHAT_API_SECRET: API_SECRET,
        AUTH_SECRET: crypto.randomBytes(24).toString('hex'),
        SEED_DEMO: '0',
        // The peers run with their shapers and limits off (ejabberd shaper_rules, Prosody's limits modules).
        CHAT_RATE_LIMITS: 'off',
        LOG_LEVEL: 'warn',
        DATA_DIR: path.join(ROOT, 'bench/results/tmp/data'),
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(`${url}/healthz`, 60_000, () => child.exitCode === null);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${out}`);
  }
  return {
    url,
    wsUrl: `ws://127.0.0.1:${port}`,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

const serverToken = () => signToken({ server: true });

/** Calls the chat API on `node` with a token. */
export function chatApi<T = Record<string, unknown>>(
  node: CaseroomNode,
  method: string,
  route: string,
  token: string,
  body?: unknown,
  query: Record<string, string> = {},
) {
  const url = new URL(`/chat${route}`, node.url);
  url.searchParams.set('api_key', API_KEY);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return httpJson<T>(method, url.toString(), { authorization: token, 'auth-type': 'jwt' }, body);
}

function must<T>(reply: { status: number; body: T }, what: string): T {
  if (reply.status >= 300)
    throw new Error(`${what}: HTTP ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
  return reply.body;
}

/** A user's socket: resolves once the first frame (`health.check`) arrived, with its connection id. */
export function openSocket(
  node: CaseroomNode,
  user: string,
  index: number,
  onFrame?: (data: Buffer) => void,
  token = signToken({ user_id: user }),
): Promise<{ ws: LiteSocket; connectionId: string }> {
  const url = `${node.wsUrl}/chat/connect?api_key=${API_KEY}&user_id=${encodeURIComponent(user)}&authorization=${token}`;
  return new Promise((resolve, reject) => {
    let first = true;
    LiteSocket.connect({
      url,
      localAddress: loopbackSource(index),
      onMessage(data, socket) {
        if (!first) {
          onFrame?.(data);
          return;
        }
        first = false;
        const frame = JSON.parse(data.toString()) as { type: string; connection_id?: string };
        if (frame.type !== 'health.check' || !frame.connection_id) {
          reject(new Error(`first frame was ${data.toString().slice(0, 200)}`));
          socket.terminate();
          return;
        }
        resolve({ ws: socket, connectionId: frame.connection_id });
      },
      onClose: () => reject(new Error('socket closed before its first frame')),
    }).catch(reject);
  });
}

const closeSocket = (ws: LiteSocket) => ws.close();

const MESSAGE_NEW = Buffer.from('{"type":"message.new"');

/** Calls `onMark` for a `message.new` frame's benchmark marker (only the marker is parsed, not the JSON). */
export function markOfFrame(data: Buffer, onMark: OnMark): void {
  if (data.compare(MESSAGE_NEW, 0, MESSAGE_NEW.length, 0, MESSAGE_NEW.length) !== 0) return;
  const at = data.indexOf('"bench":"');
  if (at === -1) return;
  scanMarks(data.toString('latin1', at + 9, at + 9 + 80), onMark);
}

/** Drives Caseroom on one or more nodes (clients are spread over the nodes round robin). */
export class CaseroomDriver implements Driver {
  readonly name = 'Caseroom';

  constructor(
    readonly nodes: CaseroomNode[],
    private readonly db: { url: string; drop(): Promise<void> },
  ) {}

  static async start(options: { nodes?: number; nodeArgs?: string[] } = {}): Promise<CaseroomDriver> {
    const db = await createDatabase();
    const count = options.nodes ?? 1;
    const nodes: CaseroomNode[] = [];
    try {
      // The first node runs the migrations; the others start on a migrated database.
      for (let i = 0; i < count; i++) {
        nodes.push(
          await startNode(db.url, {
            core: 0,
            redis: count > 1,
            ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
          }),
        );
      }
    } catch (err) {
      for (const n of nodes) await n.stop();
      await db.drop();
      throw err;
    }
    return new CaseroomDriver(nodes, db);
  }

  /** The database this run's nodes share (the history scenario bulk-loads into it). */
  get databaseUrl(): string {
    return this.db.url;
  }

  serverPids(): number[] {
    return this.nodes.flatMap((n) => (n.child.pid ? processTree(n.child.pid) : []));
  }

  dbPids(): number[] {
    return pidsNamed('postgres');
  }

  node(index: number): CaseroomNode {
    return this.nodes[index % this.nodes.length] as CaseroomNode;
  }

  async upsertUsers(ids: string[]): Promise<void> {
    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += 200) batches.push(ids.slice(i, i + 200));
    await pool(batches, 4, async (batch) => {
      must(
        await chatApi(this.node(0), 'POST', '/users', serverToken(), {
          users: batch.map((id) => ({ id, name: id })),
        }),
        'upsert users',
      );
    });
  }

  async createRoom(room: string, members: string[]): Promise<void> {
    await this.upsertUsers(members);
    must(
      await chatApi(this.node(0), 'POST', `/channels/messaging/${room}/query`, serverToken(), {
        data: { members },
        state: false,
      }),
      `create channel ${room}`,
    );
  }

  async join(room: string, user: string, index: number, onMark: OnMark): Promise<RoomClient> {
    const node = this.node(index);
    const token = signToken({ user_id: user });
    const { ws, connectionId } = await openSocket(node, user, index, (data) => markOfFrame(data, onMark));
    must(
      await chatApi(
        node,
        'POST',
        `/channels/messaging/${room}/query`,
        token,
        { watch: true, state: true, messages: { limit: 0 } },
        {
          connection_id: connectionId,
          user_id: user,
        },
      ),
      `watch ${room}`,
    );
    return {
      send: async (mark: Mark) => {
        const reply = await chatApi(node, 'POST', `/channels/messaging/${room}/message`, token, {
          message: {
            id: `${room}-${mark.sender}-${mark.seq}`,
            text: `message ${mark.seq}`,
            bench: markText(mark),
          },
        });
        must(reply, 'send message');
      },
      close: () => closeSocket(ws),
    };
  }

  async connectIdle(user: string, index: number): Promise<IdleClient> {
    const { ws } = await openSocket(this.node(index), user, index);
    return { close: () => closeSocket(ws) };
  }

  async stop(): Promise<void> {
    for (const n of this.nodes) await n.stop();
    await this.db.drop();
  }
}
