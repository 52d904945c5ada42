import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import type { Driver, IdleClient, OnMark, RoomClient } from '../lib/driver.js';
import { processTree } from '../lib/proc.js';
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

/** Drives an XMPP server: users register in-band on their first connection, rooms are MUC rooms. */
export class XmppDriver implements Driver {
  private readonly registered = new Set<string>();

  constructor(
    readonly server: XmppServer,
    private readonly stopServer: () => Promise<void>,
  ) {}

  get name(): string {
    return this.server.name;
  }

  serverPids(): number[] {
    return this.server.child.pid ? processTree(this.server.child.pid) : [];
  }

  dbPids(): number[] {
    return [];
  }

  async createRoom(): Promise<void> {
    // MUC rooms are created by their first occupant, with the room defaults of the server config.
  }

  private async login(user: string, index: number): Promise<XmppConnection> {
    const register = !this.registered.has(user);
    const c = await XmppConnection.login(this.server.target, user, index, register);
    this.registered.add(user);
    return c;
  }

  async join(room: string, user: string, index: number, onMark: OnMark): Promise<RoomClient> {
    const c = await this.login(user, index);
    await c.joinRoom(room, onMark);
    return { send: (mark) => c.sendToRoom(room, mark), close: () => c.close() };
  }

  async connectIdle(user: string, index: number): Promise<IdleClient> {
    const c = await this.login(user, index);
    c.available();
    return { close: () => c.close() };
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
    await c.joinRoom(room, onMark, { since });
    return c;
  }

  stop(): Promise<void> {
    return this.stopServer();
  }
}
