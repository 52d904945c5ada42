import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CaseroomDriver, ROOT } from '../systems/caseroom.js';
import { runDurable, type DurableOptions, type DurableResult } from './durable.js';
import { runFanout, type FanoutOptions } from './fanout.js';

/**
 * CPU profile of the hottest path: the server runs with `node --cpu-prof` through the fan-out scenario (or the
 * durable one); the profile (written when the process exits) is summarised as the functions with the most self time.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface ProfileSummary {
  file: string;
  /** The samples counted (CLOCK_MONOTONIC µs), when not the whole profile. */
  window?: Window;
  samples: number;
  top: Array<{ fn: string; where: string; selfPct: number }>;
  byArea: Array<{ area: string; selfPct: number }>;
}

function area(url: string, fn: string): string {
  if (!url)
    return fn === '(garbage collector)'
      ? 'GC'
      : fn === '(idle)'
        ? 'idle'
        : fn === '(program)'
          ? 'native/program'
          : 'native';
  if (url.includes('/packages/server/')) return 'Caseroom server code';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1] as string;
  if (url.startsWith('node:')) return 'Node core';
  return 'other';
}

/** A span of CLOCK_MONOTONIC microseconds (`process.hrtime`, and V8's profile timestamps on Linux). */
export interface Window {
  fromUs: number;
  toUs: number;
}

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** Self hits per node, counting only the samples taken inside `window` (all of them without one). */
function hitsIn(
  profile: { nodes: ProfileNode[]; startTime: number; samples?: number[]; timeDeltas?: number[] },
  window: Window | undefined,
): Map<number, number> {
  const hits = new Map<number, number>();
  if (!window || !profile.samples || !profile.timeDeltas) {
    for (const n of profile.nodes) hits.set(n.id, n.hitCount ?? 0);
    return hits;
  }
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t < window.fromUs || t > window.toUs) continue;
    const id = profile.samples[i] as number;
    hits.set(id, (hits.get(id) ?? 0) + 1);
  }
  return hits;
}

export function summarise(file: string, window?: Window): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Parameters<typeof hitsIn>[0];
  const counted = hitsIn(profile, window);
  const self = new Map<string, { fn: string; where: string; hits: number }>();
  const areas = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const hits = counted.get(n.id) ?? 0;
    if (hits === 0) continue;
    total += hits;
    const { functionName, url, lineNumber } = n.callFrame;
    const fn = functionName || '(anonymous)';
    const where = url ? `${url.replace(/^file:\/\//, '').replace(ROOT + '/', '')}:${lineNumber + 1}` : '';
    const key = `${fn}@${where}`;
    const e = self.get(key) ?? { fn, where, hits: 0 };
    e.hits += hits;
    self.set(key, e);
    const a = area(url, fn);
    areas.set(a, (areas.get(a) ?? 0) + hits);
  }
  const pct = (h: number) => Math.round((h / total) * 1000) / 10;
  return {
    file,
    samples: total,
    top: [...self.values()]
      .sort((a, b) => b.hits - a.hits)
      .slice(0, 20)
      .map((e) => ({ fn: e.fn, where: e.where, selfPct: pct(e.hits) })),
    byArea: [...areas.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([a, h]) => ({ area: a, selfPct: pct(h) })),
  };
}

/** Runs `scenario` against one server under `--cpu-prof` and summarises the profile it wrote. */
async function profiled<T>(
  scenario: (driver: CaseroomDriver) => Promise<T>,
  window?: () => Window | undefined,
): Promise<{ result: T; summary: ProfileSummary }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-prof-'));
  const driver = await CaseroomDriver.start({ nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir] });
  let result: T;
  try {
    result = await scenario(driver);
  } finally {
    await driver.stop();
  }
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('the server wrote no .cpuprofile');
  const out = path.join(ROOT, 'bench/results/tmp', file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.copyFileSync(path.join(dir, file), out);
  fs.rmSync(dir, { recursive: true, force: true });
  const span = window?.();
  return { result, summary: { ...summarise(out, span), ...(span ? { window: span } : {}) } };
}

export async function profileFanout(o: FanoutOptions): Promise<ProfileSummary> {
  return (await profiled((driver) => runFanout(driver, o))).summary;
}

/**
 * The durable scenario under the profiler, with the figure to compare between runs on a noisy machine: server CPU
 * milliseconds per acknowledged message (the profiler itself adds some, so compare profiled runs with each other).
 */
export async function profileDurable(
  o: DurableOptions,
): Promise<ProfileSummary & { durable: DurableResult; serverCpuMsPerMessage: number }> {
  // Only the samples between the first send and the last acknowledgement: not the set-up (users, channels, joins).
  let fromUs = Infinity;
  let toUs = 0;
  const { result, summary } = await profiled(
    (driver) => {
      const timed = Object.create(driver) as CaseroomDriver;
      timed.join = async (...args) => {
        const client = await driver.join(...args);
        return {
          ...client,
          send: async (mark) => {
            fromUs = Math.min(fromUs, monotonicUs());
            await client.send(mark);
            toUs = Math.max(toUs, monotonicUs());
          },
        };
      };
      return runDurable(timed, o);
    },
    () => (toUs > 0 ? { fromUs, toUs } : undefined),
  );
  const serverCpuMsPerMessage = Math.round((result.serverCpu * 10 * 100) / result.ackedPerSec) / 100;
  return { ...summary, durable: result, serverCpuMsPerMessage };
}
