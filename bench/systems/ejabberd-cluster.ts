import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { OnMark, RoomClient } from '../lib/driver.js';
import { processTree } from '../lib/proc.js';
import { startEjabberd } from './ejabberd.js';
import { sleep, until } from '../lib/stats.js';
import { waitListening, XmppDriver } from './xmpp.js';
import { XmppConnection } from './xmpp-client.js';

/**
 * ejabberd as a cluster of nodes on this machine, for scenario 5 (two nodes): each node is a bench-started
 * ejabberd (its own config, spool and log dir, its own c2s port, pinned to the server core like every server under
 * test) named `bench<A|B…><port>@localhost`, all with one Erlang cookie; the second and later nodes run
 * `ejabberdctl join_cluster` to the first, which replicates its Mnesia database (accounts, routes, online MUC
 * rooms, the archive when it is in Mnesia) to them. Clients alternate between the nodes by index, as Caseroom's
 * do; a MUC room is created by its first occupant, and the driver lets that first join finish before the room's
 * other joins start, so that every room is created once, on the node of its first client (the first node in the
 * scenarios: the fan-out sender is client 0, a durable room's first member is client `room × roomSize`).
 */

export interface EjabberdNode {
  /** Erlang node name. */
  name: string;
  driver: XmppDriver;
}

/** Runs `ejabberdctl <args…>` against `node`, as the user owning its dir (ejabberd), pinned to the server core. */
export function ejabberdctl(node: EjabberdNode, args: string[], timeoutMs = 120_000): Promise<string> {
  const dir = node.driver.server.dir;
  const owner = fs.statSync(dir);
  const command = [
    '-c',
    '0',
    'ejabberdctl',
    '--config-dir',
    dir,
    '--spool',
    path.join(dir, 'spool'),
    '--logs',
    path.join(dir, 'logs'),
    '--node',
    node.name,
    ...args,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      'taskset',
      command,
      {
        cwd: dir,
        uid: owner.uid,
        gid: owner.gid,
        env: { ...process.env, HOME: dir, USER: 'ejabberd', LOGNAME: 'ejabberd' },
        timeout: timeoutMs,
      },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new Error(`ejabberdctl ${args.join(' ')} on ${node.name}: ${err.message}\n${stdout}${stderr}`),
          );
        else resolve(stdout.toString());
      },
    );
  });
}

/** How long a join may go unanswered before it is made again, and how many times. */
const JOIN_WAIT_MS = 10_000;
const JOIN_ATTEMPTS = 4;

let probes = 0;

/**
 * Asks `room` (disco#info) every 250 ms until an answer comes back, for at most 10 s, and answers how many asks
 * it took. Once the room's answer arrives, the room's node routes to this new session, which it learns of
 * asynchronously from the client's node (dirty Mnesia writes); a client that joins before that can lose the join
 * (see joinRetrying). A real client makes a few round trips (roster, disco) before it joins a room; this one
 * makes only this one. The answer is looked for on the socket directly (it also stays in the connection's
 * buffer, where the join ignores it).
 */
async function reachableFromRoom(c: XmppConnection, room: string, mucDomain: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (let attempt = 1; ; attempt++) {
    if (Date.now() > deadline) return attempt;
    const id = `reach${++probes}`;
    const answered = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), 250);
      const onData = (chunk: string) => {
        if (chunk.includes(`id='${id}'`) || chunk.includes(`id="${id}"`)) done(true);
      };
      const done = (ok: boolean) => {
        clearTimeout(timer);
        c.socket.off('data', onData);
        resolve(ok);
      };
      c.socket.on('data', onData);
    });
    c.write(
      `<iq type='get' to='${room}@${mucDomain}' id='${id}'><query xmlns='http://jabber.org/protocol/disco#info'/></iq>`,
    );
    if (await answered) return attempt;
  }
}

/** The driver over a cluster: clients spread over the nodes, server CPU and memory summed over every node. */
export class EjabberdClusterDriver extends XmppDriver {
  /** Per room, the first join (the room's creation); the room's other joins wait for it. */
  private readonly created = new Map<string, Promise<unknown>>();

  constructor(readonly nodes: EjabberdNode[]) {
    const first = (nodes[0] as EjabberdNode).driver;
    super(
      first.server,
      async () => {
        await Promise.all(nodes.map((n) => n.driver.stop().catch(() => undefined)));
      },
      nodes.map((n) => n.driver.server.target),
    );
  }

  override serverPids(): number[] {
    return this.nodes.flatMap((n) =>
      n.driver.server.child.pid ? processTree(n.driver.server.child.pid) : [],
    );
  }

  /** The database processes of every node (none while the archive is in Mnesia), once each. */
  override dbPids(): number[] {
    return [...new Set(this.nodes.flatMap((n) => n.driver.dbPids()))];
  }

  override async join(room: string, user: string, index: number, onMark: OnMark): Promise<RoomClient> {
    const creation = this.created.get(room);
    if (creation) {
      await creation;
      return this.joinRetrying(room, user, index, onMark);
    }
    const joined = this.joinRetrying(room, user, index, onMark);
    this.created.set(
      room,
      joined.catch(() => undefined),
    );
    return joined;
  }

  /** Joins made, and joins that had no answer within JOIN_WAIT_MS and were made again on a fresh connection. */
  joins = 0;
  joinRetries = 0;
  /** Clients on another node than the first whose first disco#info to the room went unanswered (250 ms). */
  unreachedAtFirst = 0;

  /**
   * Logs in on the client's node and joins `room`; a join the room never answers is dropped (socket closed) and
   * made again on a fresh connection, at most JOIN_ATTEMPTS times. Such lost joins happen here: a few clients
   * on the second node that join right after binding never get the room's answer and are not among its
   * occupants afterwards (the room sees no queue; nothing is logged). The likely cause: the first node does not
   * know the new session yet (sessions are replicated by dirty, asynchronous Mnesia writes), so the room's first
   * stanzas to the client bounce and the room drops the occupant it had just added. With reachableFromRoom
   * before each such join, no join was lost in the runs made here.
   */
  private async joinRetrying(room: string, user: string, index: number, onMark: OnMark): Promise<RoomClient> {
    const target = this.targetOf(index);
    this.joins++;
    for (let attempt = 1; ; attempt++) {
      const c = await this.login(user, index);
      if (target !== this.targets[0] && (await reachableFromRoom(c, room, target.mucDomain)) > 1)
        this.unreachedAtFirst++;
      const joined = c.joinRoom(room, onMark).then(() => true);
      let answered: boolean;
      let timer: NodeJS.Timeout | undefined;
      try {
        answered = await Promise.race([
          joined,
          new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), JOIN_WAIT_MS))),
        ]);
      } catch (err) {
        c.socket.destroy();
        throw err;
      } finally {
        clearTimeout(timer);
      }
      if (answered) return { send: (mark) => c.sendToRoom(room, mark), close: () => c.close() };
      joined.catch(() => undefined);
      c.socket.destroy();
      if (attempt >= JOIN_ATTEMPTS)
        throw new Error(`${user}: ${JOIN_ATTEMPTS} joins of ${room} on port ${target.port} had no answer`);
      this.joinRetries++;
    }
  }

  /** The nodes the first node counts in its cluster (`ejabberdctl list_cluster`). */
  async listCluster(): Promise<string[]> {
    const out = await ejabberdctl(this.nodes[0] as EjabberdNode, ['list_cluster']);
    return out
      .split('\n')
      .map((l) => l.trim().replace(/^'|'$/g, ''))
      .filter(Boolean);
  }
}

/** One cross-node check: a client on the first node and one on `other` in a fresh room, each hears the other. */
async function crossNodeCheck(first: EjabberdNode, other: EjabberdNode, n: number): Promise<void> {
  const room = `cluster-check-${n}`;
  const conns: XmppConnection[] = [];
  const heard = new Set<string>();
  const check = async () => {
    const a = await XmppConnection.login(first.driver.server.target, `check${n}a`, 60_000 + 2 * n, true);
    conns.push(a);
    await a.joinRoom(room, (m) => heard.add(`a${m.sender}`));
    const b = await XmppConnection.login(other.driver.server.target, `check${n}b`, 60_001 + 2 * n, true);
    conns.push(b);
    await b.joinRoom(room, (m) => heard.add(`b${m.sender}`));
    await a.sendToRoom(room, { sender: 0, seq: 0, ts: Date.now() });
    await b.sendToRoom(room, { sender: 1, seq: 0, ts: Date.now() });
    await until(() => heard.has('b0') && heard.has('a1'), 5_000);
    if (!heard.has('b0') || !heard.has('a1'))
      throw new Error(`a message did not cross between ${first.name} and ${other.name}`);
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('cross-node check timed out')), 5_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    for (const c of conns) c.socket.destroy();
  }
}

/**
 * Waits until the cluster carries MUC traffic both ways between the first node and every other one (a client on
 * each node in a fresh room, each hears the other), retrying for up to 60 s with fresh users and rooms.
 */
async function settle(nodes: EjabberdNode[]): Promise<void> {
  const [first, ...others] = nodes as [EjabberdNode, ...EjabberdNode[]];
  const deadline = Date.now() + 60_000;
  let lastError = '';
  for (let n = 0; Date.now() < deadline; n++) {
    try {
      await Promise.all(others.map((o, i) => crossNodeCheck(first, o, n * others.length + i)));
      return;
    } catch (err) {
      lastError = (err as Error).message;
    }
    await sleep(250);
  }
  throw new Error(`ejabberd cluster did not carry messages between its nodes within 60 s: ${lastError}`);
}

/**
 * Starts `count` ejabberd nodes (default 2) and joins them into one cluster; throws (after stopping them) when a
 * node does not start or the first node does not list every node in its cluster.
 */
export async function startEjabberdCluster(options: {
  archive: boolean;
  count?: number;
}): Promise<EjabberdClusterDriver> {
  const count = options.count ?? 2;
  const cookie = crypto.randomBytes(16).toString('hex');
  const prefixes = Array.from({ length: count }, (_, i) => `bench${String.fromCharCode(65 + i)}`);
  const started = await Promise.allSettled(
    prefixes.map((nodePrefix) => startEjabberd({ archive: options.archive, nodePrefix, cookie })),
  );
  const nodes: EjabberdNode[] = started.flatMap((s, i) =>
    s.status === 'fulfilled'
      ? [{ name: `${prefixes[i] ?? ''}${s.value.server.target.port}@localhost`, driver: s.value }]
      : [],
  );
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(nodes.map((n) => n.driver.stop().catch(() => undefined)));
    throw failed.reason;
  }
  const driver = new EjabberdClusterDriver(nodes);
  try {
    const [first, ...others] = nodes as [EjabberdNode, ...EjabberdNode[]];
    for (const node of others) {
      // join_cluster restarts the ejabberd application on the joining node (its listener closes and reopens).
      await ejabberdctl(node, ['join_cluster', first.name]);
      await waitListening(
        node.driver.server.target.port,
        60_000,
        () => node.driver.server.child.exitCode === null,
        () => node.driver.server.output(),
      );
    }
    const members = await driver.listCluster();
    const missing = nodes.filter((n) => !members.includes(n.name));
    if (missing.length)
      throw new Error(
        `ejabberd cluster: ${first.name} lists ${members.join(', ') || 'nothing'}, not ${missing.map((n) => n.name).join(', ')}`,
      );
    await settle(nodes);
  } catch (err) {
    await driver.stop();
    throw err;
  }
  return driver;
}
