import type { Driver, Mark, RoomClient } from '../lib/driver.js';
import { CpuWindow, GENERATOR_SATURATED_PCT, rssBytes } from '../lib/proc.js';
import { nowMs, pool, Samples, sleep, until, type LatencySummary } from '../lib/stats.js';

/**
 * Fan-out: one room of `members` connected clients; one sender raises the message rate step by step. A step passes
 * while p99 send-to-receive latency stays at or under 100 ms with nothing lost; the answer is the best passing step.
 */

export interface FanoutOptions {
  members: number;
  /** Messages per second, in the order tried. */
  rates: number[];
  stepSeconds: number;
  /** p99 bound of a passing step. */
  p99LimitMs?: number;
  room?: string;
}

export interface FanoutStep {
  rate: number;
  sent: number;
  deliveriesPerSec: number;
  latency: LatencySummary;
  lost: number;
  duplicates: number;
  reordered: number;
  sendErrors: number;
  serverCpu: number;
  dbCpu: number;
  generatorCpu: number;
  passed: boolean;
}

export interface FanoutResult {
  members: number;
  steps: FanoutStep[];
  best: FanoutStep | undefined;
  serverRssMB: number;
  generatorSaturated: boolean;
  setupSeconds: number;
}

/**
 * Per-receiver bookkeeping of one step: which of the step's sequence numbers `[first, first + total)` arrived (a
 * byte each, no hashing per delivery), and a set for any other number (a late frame of an earlier step).
 */
class Receiver {
  private readonly inStep: Uint8Array;
  private readonly other = new Set<number>();
  last = -1;
  duplicates = 0;
  reordered = 0;

  constructor(
    private readonly first: number,
    total: number,
  ) {
    this.inStep = new Uint8Array(total);
  }

  /** Records `seq`; false when it arrived before. */
  see(seq: number): boolean {
    const i = seq - this.first;
    if (i >= 0 && i < this.inStep.length) {
      if (this.inStep[i] === 1) return false;
      this.inStep[i] = 1;
      return true;
    }
    if (this.other.has(seq)) return false;
    this.other.add(seq);
    return true;
  }
}

export async function runFanout(driver: Driver, o: FanoutOptions): Promise<FanoutResult> {
  const room = o.room ?? 'fanout';
  const limit = o.p99LimitMs ?? 100;
  const setupStart = Date.now();
  const users = Array.from({ length: o.members }, (_, i) => `fan${i}`);
  await driver.createRoom(room, users, { archive: false });

  let samples = new Samples();
  let receivers: Receiver[] = users.map(() => new Receiver(0, 0));
  const clients: RoomClient[] = await pool(users, 50, (user, i) =>
    driver.join(room, user, i, (mark: Mark) => {
      const t = nowMs();
      const r = receivers[i] as Receiver;
      if (!r.see(mark.seq)) {
        r.duplicates++;
        return;
      }
      if (mark.seq < r.last) r.reordered++;
      r.last = Math.max(r.last, mark.seq);
      samples.add(t - mark.ts);
    }),
  );
  const setupSeconds = Math.round((Date.now() - setupStart) / 100) / 10;
  const sender = clients[0] as RoomClient;
  const steps: FanoutStep[] = [];
  let seq = 0;
  let maxRss = 0;
  let saturated = false;

  for (const rate of o.rates) {
    const total = Math.max(1, Math.round(rate * o.stepSeconds));
    const first = seq;
    samples = new Samples();
    receivers = users.map(() => new Receiver(first, total));
    const cpu = new CpuWindow(
      () => driver.serverPids(),
      () => driver.dbPids(),
    );
    let sendErrors = 0;
    let inFlight = 0;
    const start = nowMs();
    // Open loop: message k is due at start + k/rate; at most 256 sends in flight.
    for (let k = 0; k < total; k++) {
      const due = start + (k * 1000) / rate;
      const wait = due - nowMs();
      if (wait > 1) await sleep(wait);
      while (inFlight >= 256) await sleep(1);
      inFlight++;
      const mark = { sender: 0, seq: seq++, ts: nowMs() };
      sender
        .send(mark)
        .catch(() => sendErrors++)
        .finally(() => inFlight--);
    }
    await until(() => inFlight === 0, 30_000);
    const expected = total * o.members;
    await until(() => samples.count >= expected, 5_000);
    const elapsed = (nowMs() - start) / 1000;
    const usage = cpu.read();
    maxRss = Math.max(maxRss, rssBytes(driver.serverPids()));
    const latency = samples.summary();
    const lost = expected - samples.count;
    const step: FanoutStep = {
      rate,
      sent: total,
      deliveriesPerSec: Math.round(samples.count / elapsed),
      latency,
      lost,
      duplicates: receivers.reduce((a, r) => a + r.duplicates, 0),
      reordered: receivers.reduce((a, r) => a + r.reordered, 0),
      sendErrors,
      serverCpu: usage.serverCpu,
      dbCpu: usage.dbCpu,
      generatorCpu: usage.generatorCpu,
      passed: latency.p99 <= limit && lost === 0 && sendErrors === 0,
    };
    steps.push(step);
    if (step.generatorCpu >= GENERATOR_SATURATED_PCT) saturated = true;
    if (!step.passed) break;
    await sleep(300);
  }
  await pool(clients, 100, (c) => c.close());
  const passing = steps.filter((s) => s.passed);
  return {
    members: o.members,
    steps,
    best: passing.reduce<FanoutStep | undefined>(
      (b, s) => (!b || s.deliveriesPerSec > b.deliveriesPerSec ? s : b),
      undefined,
    ),
    serverRssMB: Math.round(maxRss / 2 ** 20),
    generatorSaturated: saturated,
    setupSeconds,
  };
}
