import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * Every e2e server writes its whole log here (one file per server); after all e2e files, the global teardown
 * (`e2e/support/log-check.ts`) fails the run on any token or secret in them.
 */
export const E2E_LOG_DIR = path.join(REPO_ROOT, 'test-results', 'e2e-server-logs');
const SERVER_MAIN = path.join(REPO_ROOT, 'packages/server/dist/main.js');
const WEB_INDEX = path.join(REPO_ROOT, 'packages/web/dist/index.html');

/** A real Caseroom server process on a free loopback port with its own data directory. */
export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  dataDir: string;
  /** Everything the process wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  /** The file the whole log goes to (in {@link E2E_LOG_DIR}). */
  logFile: string;
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /** Extra environment; defaults give PGlite in a temp dir with the demo data. */
  env?: Record<string, string>;
  /** How long to wait for `GET /healthz` to answer 200. */
  timeoutMs?: number;
  /** The port to listen on (from `freePort()`), when something must know the URL before the start. */
  port?: number;
}

/** Builds server, SDK and web when their outputs are missing (set `E2E_BUILD=1` to always build). */
export function ensureBuilt(): void {
  if (process.env.E2E_BUILD !== '1' && fs.existsSync(SERVER_MAIN) && fs.existsSync(WEB_INDEX)) return;
  const result = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status ?? 'signal'})`);
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Starts `node packages/server/dist/main.js` and resolves once `/healthz` answers 200. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  ensureBuilt();
  const port = options.port ?? (await freePort());
  const dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'caseroom-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
      // Request lines included: the log check after the e2e run must see every URL the server logged.
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await fs.promises.mkdir(E2E_LOG_DIR, { recursive: true });
  const logFile = path.join(E2E_LOG_DIR, `${Date.now()}-${port}.log`);
  const log = fs.createWriteStream(logFile);
  log.on('error', () => undefined); // a lost log line must not fail the test it belongs to
  let output = '';
  const collect = (chunk: Buffer) => {
    if (!log.writableEnded) log.write(chunk);
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async () => {
    await stopProcess(child, exited);
    await new Promise((resolve) => log.end(resolve));
    await fs.promises.rm(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealthy(url, exited, options.timeoutMs ?? 90_000);
  } catch (err) {
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- server output ---\n${output}`);
  }
  return { url, dataDir, output: () => output, logFile, stop };
}

async function waitForHealthy(url: string, exited: Promise<number | null>, timeoutMs: number): Promise<void> {
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code ?? -1));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`server exited with code ${exitCode} before it was healthy`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server at ${url} was not healthy within ${timeoutMs} ms`);
}

async function stopProcess(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 10_000).unref());
  if ((await Promise.race([exited, timer])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}
