import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Driver, IdleClient, OnMark, RoomClient } from '../lib/driver.js';
import { pidsNamed, processTree } from '../lib/proc.js';
import { sleep } from '../lib/stats.js';
import { XmppConnection, type XmppTarget } from './xmpp-client.js';

/** An XMPP server the bench started (ejabberd or Prosody): its process tree, port, and a driver over it. */

export interface XmppServer {
  name: string;
  version: string;
  target: XmppTarget;
  child: ChildProcess;
  dir: string;
  output(): string;
}

/** Answers once something listens on `port`, or throws after `timeoutMs`. */
export async function waitListening(
  port: number,
  timeoutMs: number,
  alive: () => boolean,
  out: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port });
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (!alive()) throw new Error(`the server exited before listening on ${port}:\n${out()}`);
    if (Date.now() > deadline)
      throw new Error(`nothing listened on ${port} within ${timeoutMs} ms:\n${out()}`);
    await sleep(250);
  }
}

/** Stops a process tree: SIGTERM to every process, then SIGKILL to what is left after `graceMs`. */
export async function stopTree(root: number | undefined, graceMs = 10_000): Promise<void> {
  if (!root) return;
  const pids = processTree(root);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && pids.some((p) => fs.existsSync(`/proc/${p}`))) await sleep(100);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Installed Debian package version, or undefined. */
export function debVersion(pkg: string): string | undefined {
  try {
    const v = execFileSync('dpkg-query', ['-W', '-f=${Status} ${Version}', pkg]).toString();
    return v.startsWith('install ok installed') ? v.split(' ').pop() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `join` on `c`; when it fails (refused, timed out) the connection is dropped, so that a retry does not
 * leave a logged-in session behind that the server may still put into the room later.
 */
async function joinOrDrop(c: XmppConnection, join: () => Promise<void>): Promise<void> {
  try {
    await join();
  } catch (err) {
    c.socket.destroy();
    throw err;
  }
}

/**
 * Drives an XMPP server: users register in-band on their first connection, rooms are MUC rooms. With `targets`
 * (the c2s ports of a cluster's nodes), client `index` connects to `targets[index % targets.length]`, as Caseroom
 * clients alternate between its nodes; without, every client connects to `server.target`.
 */
export class XmppDriver implements Driver {
  private readonly registered = new Set<string>();

  constructor(
    readonly server: XmppServer,
    private readonly stopServer: () => Promise<void>,
    readonly targets: XmppTarget[] = [server.target],
  ) {}

  get name(): string {
    return this.server.name;
  }

  serverPids(): number[] {
    return this.server.child.pid ? processTree(this.server.child.pid) : [];
  }

  /**
   * The PostgreSQL database holding the server's message archive (when the archive is on), dropped on stop; its
   * CPU is read from every `postgres` process, as Caseroom's is.
   */
  database: { url: string; drop(): Promise<void> } | undefined;

  dbPids(): number[] {
    return this.database ? pidsNamed('postgres') : [];
  }

  async createRoom(): Promise<void> {
    // MUC rooms are created by their first occupant, with the room defaults of the server config.
  }

  /** The node client `index` connects to. */
  protected targetOf(index: number): XmppTarget {
    return this.targets[index % this.targets.length] ?? this.server.target;
  }

  /** Logs `user` in on its node, registering it in-band on its first connection. */
  protected async login(user: string, index: number): Promise<XmppConnection> {
    const register = !this.registered.has(user);
    const c = await XmppConnection.login(this.targetOf(index), user, index, register);
    this.registered.add(user);
    return c;
  }

  async join(room: string, user: string, index: number, onMark: OnMark): Promise<RoomClient> {
    const c = await this.login(user, index);
    await joinOrDrop(c, () => c.joinRoom(room, onMark));
    return { send: (mark) => c.sendToRoom(room, mark), close: () => c.close() };
  }

  async connectIdle(user: string, index: number): Promise<IdleClient> {
    const c = await this.login(user, index);
    c.available();
    return { close: () => c.close() };
  }

  /** A client joined to `room` without history, for archive (MAM) queries on it. */
  async joinForQueries(room: string, user: string, index: number): Promise<XmppConnection> {
    const c = await this.login(user, index);
    await joinOrDrop(c, () => c.joinRoom(room, () => undefined));
    return c;
  }

  /** A connection for the reconnect storm (joins with history since `since`). */
  async rejoin(
    room: string,
    user: string,
    index: number,
    onMark: OnMark,
    since: string,
  ): Promise<XmppConnection> {
    const c = await this.login(user, index);
    await joinOrDrop(c, () => c.joinRoom(room, onMark, { since }));
    return c;
  }

  async stop(): Promise<void> {
    try {
      await this.stopServer();
    } finally {
      await this.database?.drop();
    }
  }
}

/** The tail of a log file, or nothing when it is not there (yet). */
export function readLogTail(file: string, chars = 5000): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '';
  }
}

/**
 * Starts an XMPP server pinned to core 0 (`taskset -c 0 <command...>`) in `dir`, keeps the tail of its output
 * and `logFile`, waits until `port` listens, and answers a driver whose stop ends the process tree and removes
 * `dir`. On a failed start the process is stopped before the error is thrown.
 *
 * With `user`, the command runs as that user from the start (HOME = `dir`) instead of switching to it itself:
 * `su`/`runuser` go through pam_limits, which resets the open-files limit to 1024, so ejabberd started by root
 * as `ejabberdctl` does it accepted only about 990 sockets. Started this way the server inherits the bench's own
 * limit (Node raises its soft limit to the hard one), the same limit Caseroom and Prosody get.
 */
export async function launchXmppServer(options: {
  name: string;
  version: string;
  command: string[];
  dir: string;
  port: number;
  logFile: string;
  timeoutMs: number;
  user?: { name: string; uid: number; gid: number };
  /** The server's archive database, dropped when the start fails or the driver stops. */
  database?: XmppDriver['database'];
}): Promise<XmppDriver> {
  const { name, version, command, dir, port, logFile, timeoutMs, user, database } = options;
  const child = spawn('taskset', ['-c', '0', ...command], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: dir,
    ...(user && {
      uid: user.uid,
      gid: user.gid,
      env: { ...process.env, HOME: dir, USER: user.name, LOGNAME: user.name },
    }),
  });
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const output = () => out + readLogTail(path.isAbsolute(logFile) ? logFile : path.join(dir, logFile));
  const stop = async () => {
    await stopTree(child.pid);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitListening(port, timeoutMs, () => child.exitCode === null, output);
  } catch (err) {
    await stop().finally(() => database?.drop().catch(() => undefined));
    throw err;
  }
  const target = { port, domain: 'localhost', mucDomain: 'conference.localhost' };
  const driver = new XmppDriver({ name, version, target, child, dir, output }, stop);
  driver.database = database;
  return driver;
}
