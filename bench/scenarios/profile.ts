import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CaseroomDriver, ROOT } from '../systems/caseroom.js';
import { runFanout, type FanoutOptions } from './fanout.js';

/**
 * CPU profile of the hottest path: the server runs with `node --cpu-prof` through the fan-out scenario; the profile
 * (written when the process exits) is summarised as the functions with the most self time.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface ProfileSummary {
  file: string;
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

export function summarise(file: string): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
  const self = new Map<string, { fn: string; where: string; hits: number }>();
  const areas = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
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

export async function profileFanout(o: FanoutOptions): Promise<ProfileSummary> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-prof-'));
  const driver = await CaseroomDriver.start({ nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir] });
  try {
    await runFanout(driver, o);
  } finally {
    await driver.stop();
  }
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('the server wrote no .cpuprofile');
  const out = path.join(ROOT, 'bench/results/tmp', file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.copyFileSync(path.join(dir, file), out);
  fs.rmSync(dir, { recursive: true, force: true });
  return summarise(out);
}
