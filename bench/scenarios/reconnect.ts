import type { LiteSocket } from '../lib/ws-lite.js';
import type { Mark } from '../lib/driver.js';
import { scanMarks } from '../lib/driver.js';
import { CpuWindow } from '../lib/proc.js';
import { nowMs, pool, Samples, sleep, until, type LatencySummary } from '../lib/stats.js';
import { chatApi, markOfFrame, openSocket, signToken, type CaseroomDriver } from '../systems/caseroom.js';
import type { XmppDriver } from '../systems/xmpp.js';
import type { XmppConnection } from '../systems/xmpp-client.js';

/**
 * Reconnect storm: `clients` members of `rooms` rooms; messages keep flowing into every room while each client
 * drops its connection at a random moment within `stormSeconds` and reconnects at once. Caseroom clients catch up
 * with `POST /chat/sync`; XMPP clients rejoin the room asking for the history since they dropped. Afterwards every
 * client must hold every message of its room exactly once.
 */

export interface ReconnectOptions {
  clients: number;
  rooms: number;
  stormSeconds: number;
  /** Messages per second into each room. */
  ratePerRoom: number;
}

export interface ReconnectResult {
  clients: number;
  rooms: number;
  messagesSent: number;
  reconnected: number;
  failed: number;
  allBackSeconds: number;
  perClient: LatencySummary;
  lost: number;
  duplicates: number;
  serverCpu: number;
  generatorCpu: number;
  /** Caseroom only: p50/p99 of each reconnect phase (socket open to health.check, watch query, sync), ms. */
  phases?: Record<string, LatencySummary>;
  /** The most frequent failure messages of reconnect attempts and sends (message → count), if any. */
  errors: Record<string, number>;
}

/** What one client has received, by message key. */
class Inbox {
  readonly keys = new Set<string>();
  /** Keys received live (socket/stream): a second live delivery of one is a duplicate. */
  private readonly liveKeys = new Set<string>();
  duplicates = 0;
  live(mark: Mark): void {
    const k = `${mark.sender}.${mark.seq}`;
    if (this.liveKeys.has(k)) this.duplicates++;
    this.liveKeys.add(k);
    this.keys.add(k);
  }
  /**
   * Marks received by catching up. Overlap with live delivery is expected either way round (a message committed
   * before the catch-up read may be fanned out to the new socket after it) and merged by key, as the SDK does.
   */
  caughtUp(mark: Mark): void {
    this.keys.add(`${mark.sender}.${mark.seq}`);
  }
}

interface Storm {
  connect(i: number, inbox: Inbox): Promise<void>;
  /** Drops client `i` and brings it back; resolves once it is connected and caught up. */
  dropAndReturn(i: number, inbox: Inbox, droppedAt: number): Promise<void>;
  send(room: number, mark: Mark): Promise<void>;
  closeAll(): Promise<void>;
  pids(): number[];
}

function caseroomStorm(
  driver: CaseroomDriver,
  o: ReconnectOptions,
  roomOf: (i: number) => number,
  phases: Record<'open' | 'watch' | 'sync', Samples>,
): Storm {
  const sockets: LiteSocket[] = [];
  const user = (i: number) => `storm${i}`;
  // One token per client for all its requests, as the SDK keeps the token it connected with (the server remembers
  // a verified token, so a reconnecting client's requests are not each a new signature check).
  const tokens: string[] = [];
  const tokenOf = (i: number) => (tokens[i] ??= signToken({ user_id: user(i) }));
  const senderTokens: string[] = [];
  const cid = (r: number) => `messaging:storm${r}`;
  const open = async (i: number, inbox: Inbox, timed = false) => {
    const node = driver.node(i);
    let t = nowMs();
    const { ws, connectionId } = await openSocket(
      node,
      user(i),
      i,
      (data) => markOfFrame(data, (m) => inbox.live(m)),
      tokenOf(i),
    );
    if (timed) phases.open.add(nowMs() - t);
    t = nowMs();
    sockets[i] = ws;
    const reply = await chatApi(
      node,
      'POST',
      `/channels/messaging/storm${roomOf(i)}/query`,
      tokenOf(i),
      { watch: true, state: true, messages: { limit: 0 } },
      { connection_id: connectionId },
    );
    if (reply.status >= 300) throw new Error(`watch: HTTP ${reply.status}`);
    if (timed) phases.watch.add(nowMs() - t);
  };
  return {
    connect: open,
    async dropAndReturn(i, inbox, droppedAt) {
      sockets[i]?.terminate();
      await open(i, inbox, true);
      const t = nowMs();
      const reply = await chatApi<{ events: unknown[] }>(driver.node(i), 'POST', '/sync', tokenOf(i), {
        channel_cids: [cid(roomOf(i))],
        last_sync_at: new Date(droppedAt - 2000).toISOString(),
      });
      if (reply.status >= 300) throw new Error(`sync: HTTP ${reply.status}`);
      phases.sync.add(nowMs() - t);
      scanMarks(JSON.stringify(reply.body.events), (m) => inbox.caughtUp(m));
    },
    async send(room, mark) {
      const reply = await chatApi(
        driver.node(room),
        'POST',
        `/channels/messaging/storm${room}/message`,
        (senderTokens[room] ??= signToken({ user_id: `storm-sender${room}` })),
        {
          message: {
            id: `storm-${room}-${mark.seq}`,
            text: `storm ${mark.seq}`,
            bench: `bench|${mark.sender}|${mark.seq}|${mark.ts}|`,
          },
        },
      );
      if (reply.status >= 300) throw new Error(`send: HTTP ${reply.status}`);
    },
    closeAll: () => pool(sockets, 200, async (ws) => ws?.terminate()).then(() => undefined),
    pids: () => driver.serverPids(),
  };
}

function xmppStorm(driver: XmppDriver, roomOf: (i: number) => number, rooms: number): Storm {
  const conns: XmppConnection[] = [];
  const senders: XmppConnection[] = [];
  return {
    async connect(i, inbox) {
      if (i < rooms) {
        const s = await driver.rejoin(
          `storm${i}`,
          `storm-sender${i}`,
          100_000 + i,
          () => undefined,
          new Date().toISOString(),
        );
        senders[i] = s;
      }
      conns[i] = await driver.rejoin(
        `storm${roomOf(i)}`,
        `storm${i}`,
        i,
        (m) => inbox.live(m),
        new Date().toISOString(),
      );
    },
    async dropAndReturn(i, inbox, droppedAt) {
      conns[i]?.socket.destroy();
      conns[i] = await driver.rejoin(
        `storm${roomOf(i)}`,
        `storm${i}`,
        i,
        (m, delayed) => (delayed ? inbox.caughtUp(m) : inbox.live(m)),
        new Date(droppedAt - 2000).toISOString(),
      );
    },
    send: (room, mark) => (senders[room] as XmppConnection).sendToRoom(`storm${room}`, mark),
    closeAll: () => pool([...conns, ...senders], 200, async (c) => c?.socket.destroy()).then(() => undefined),
    pids: () => driver.serverPids(),
  };
}

export async function runReconnect(
  driver: CaseroomDriver | XmppDriver,
  o: ReconnectOptions,
): Promise<ReconnectResult> {
  const roomOf = (i: number) => i % o.rooms;
  const inboxes = Array.from({ length: o.clients }, () => new Inbox());
  let storm: Storm;
  const phases = { open: new Samples(), watch: new Samples(), sync: new Samples() };
  if (driver.name === 'Caseroom') {
    const cr = driver as CaseroomDriver;
    for (let r = 0; r < o.rooms; r++) {
      const members = [`storm-sender${r}`];
      for (let i = r; i < o.clients; i += o.rooms) members.push(`storm${i}`);
      await cr.createRoom(`storm${r}`, members);
    }
    storm = caseroomStorm(cr, o, roomOf, phases);
  } else {
    storm = xmppStorm(driver as XmppDriver, roomOf, o.rooms);
  }
  // Senders (XMPP) join first, so every client's room exists when it joins.
  for (let r = 0; r < o.rooms; r++) await storm.connect(r, inboxes[r] as Inbox);
  await pool(inboxes.slice(o.rooms), 64, (inbox, k) => storm.connect(k + o.rooms, inbox));

  const errors = new Map<string, number>();
  const noteError = (err: unknown) => {
    const text = String((err as Error)?.message ?? err)
      .split('\n')[0]
      ?.slice(0, 160) as string;
    errors.set(text, (errors.get(text) ?? 0) + 1);
  };
  // Open loop, as in fan-out: each room's messages are due at a fixed rate whatever the server's pace (a sender
  // waiting for each acknowledgement would offer a slow server less load). Only acknowledged messages must arrive.
  const acked: Array<Set<number>> = Array.from({ length: o.rooms }, () => new Set());
  let sending = true;
  let sendErrors = 0;
  let inFlight = 0;
  const senders = Array.from({ length: o.rooms }, async (_, r) => {
    const interval = 1000 / o.ratePerRoom;
    const start = nowMs() + Math.random() * interval;
    for (let k = 0; sending; k++) {
      const wait = start + k * interval - nowMs();
      if (wait > 0) await sleep(wait);
      while (inFlight >= 64 * o.rooms) await sleep(5);
      inFlight++;
      storm
        .send(r, { sender: r, seq: k, ts: nowMs() })
        .then(
          () => acked[r]?.add(k),
          (err: unknown) => {
            noteError(err);
            sendErrors++;
          },
        )
        .finally(() => inFlight--);
    }
  });
  await sleep(1000);
  const cpu = new CpuWindow(storm.pids);
  const stormStart = nowMs();
  const perClient = new Samples();
  let failed = 0;
  let lastBack = stormStart;
  await Promise.all(
    inboxes.map(async (inbox, i) => {
      await sleep(Math.random() * o.stormSeconds * 1000);
      const dropped = Date.now();
      const t = nowMs();
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          await storm.dropAndReturn(i, inbox, dropped);
          perClient.add(nowMs() - t);
          lastBack = Math.max(lastBack, nowMs());
          return;
        } catch (err) {
          noteError(err);
          await sleep(200 * (attempt + 1));
        }
      }
      failed++;
    }),
  );
  const usage = cpu.read();
  await sleep(1000);
  sending = false;
  await Promise.all(senders);
  await until(() => inFlight === 0, 60_000, 50);
  // Everything sent must arrive: wait for the last live deliveries.
  const expectedOf = (i: number) => acked[roomOf(i)] as Set<number>;
  await until(() => inboxes.every((inbox, i) => inbox.keys.size >= expectedOf(i).size), 10_000, 100);
  let lost = 0;
  inboxes.forEach((inbox, i) => {
    for (const seq of expectedOf(i)) if (!inbox.keys.has(`${roomOf(i)}.${seq}`)) lost++;
  });
  await storm.closeAll();
  return {
    clients: o.clients,
    rooms: o.rooms,
    messagesSent: acked.reduce((a, b) => a + b.size, 0),
    reconnected: o.clients - failed,
    failed: failed + sendErrors,
    allBackSeconds: Math.round((lastBack - stormStart) / 10) / 100,
    perClient: perClient.summary(),
    lost,
    duplicates: inboxes.reduce((a, b) => a + b.duplicates, 0),
    serverCpu: usage.serverCpu,
    generatorCpu: usage.generatorCpu,
    ...(driver.name === 'Caseroom'
      ? {
          phases: {
            open: phases.open.summary(),
            watch: phases.watch.summary(),
            sync: phases.sync.summary(),
          },
        }
      : {}),
    errors: Object.fromEntries([...errors].sort((a, b) => b[1] - a[1]).slice(0, 5)),
  };
}
