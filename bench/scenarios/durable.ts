import type { Driver, Mark, RoomClient } from '../lib/driver.js';
import { CpuWindow, GENERATOR_SATURATED_PCT } from '../lib/proc.js';
import { nowMs, pool, Samples, until, type LatencySummary } from '../lib/stats.js';

/**
 * Durable sends: `rooms` rooms of `roomSize` connected members, one closed-loop sender per room (send, wait for the
 * acknowledgement, send again) for `seconds`. Every message is persisted before it is acknowledged (Caseroom: the
 * HTTP answer after commit; XMPP: the room's reflection with the archive on).
 */

export interface DurableOptions {
  rooms: number;
  roomSize: number;
  seconds: number;
  prefix?: string;
}

export interface DurableResult {
  rooms: number;
  roomSize: number;
  acked: number;
  ackedPerSec: number;
  ack: LatencySummary;
  delivery: LatencySummary;
  lost: number;
  sendErrors: number;
  serverCpu: number;
  dbCpu: number;
  generatorCpu: number;
  generatorSaturated: boolean;
}

export async function runDurable(driver: Driver, o: DurableOptions): Promise<DurableResult> {
  const prefix = o.prefix ?? 'durable';
  const rooms = Array.from({ length: o.rooms }, (_, r) => `${prefix}${r}`);
  const delivery = new Samples();
  const ack = new Samples();
  const members = rooms.flatMap((room, r) =>
    Array.from({ length: o.roomSize }, (_, m) => ({
      room,
      r,
      user: `${prefix}${r}u${m}`,
      index: r * o.roomSize + m,
    })),
  );
  await pool(rooms, 4, (room, r) =>
    driver.createRoom(
      room,
      members.filter((m) => m.r === r).map((m) => m.user),
      { archive: true },
    ),
  );
  let received = 0;
  const clients = await pool(members, 50, (m) =>
    driver.join(m.room, m.user, m.index, (mark: Mark) => {
      received++;
      delivery.add(nowMs() - mark.ts);
    }),
  );
  const senders = rooms.map((_, r) => clients[r * o.roomSize] as RoomClient);

  let acked = 0;
  let sendErrors = 0;
  const cpu = new CpuWindow(
    () => driver.serverPids(),
    () => driver.dbPids(),
  );
  const start = nowMs();
  const end = start + o.seconds * 1000;
  await Promise.all(
    senders.map(async (sender, r) => {
      let seq = 0;
      while (nowMs() < end) {
        const mark = { sender: r, seq: seq++, ts: nowMs() };
        try {
          await sender.send(mark);
          ack.add(nowMs() - mark.ts);
          acked++;
        } catch {
          sendErrors++;
          if (sendErrors > 100) return;
        }
      }
    }),
  );
  const elapsed = (nowMs() - start) / 1000;
  const usage = cpu.read();
  const expected = acked * o.roomSize;
  await until(() => received >= expected, 5_000);
  await pool(clients, 100, (c) => c.close());
  return {
    rooms: o.rooms,
    roomSize: o.roomSize,
    acked,
    ackedPerSec: Math.round(acked / elapsed),
    ack: ack.summary(),
    delivery: delivery.summary(),
    lost: Math.max(0, expected - received),
    sendErrors,
    serverCpu: usage.serverCpu,
    dbCpu: usage.dbCpu,
    generatorCpu: usage.generatorCpu,
    generatorSaturated: usage.generatorCpu >= GENERATOR_SATURATED_PCT,
  };
}
