import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './lib/cluster.js';
import { mustBeZero } from './lib/figures.js';
import type { ChaosResult } from './lib/scenario.js';

/**
 * `npm run chaos -- --quick` in CI (issue 13): two real nodes on PostgreSQL and a private Redis, SDK receivers and
 * concurrent senders, two SIGKILLs under load and Redis stopped for 10 s. Every acknowledged message is on the
 * server, and every receiver showed every message once, in the server's order. Needs `npm run build` first (as
 * `npm test` does); the run's report is kept in a temporary directory and printed when a figure is not 0.
 */
describe('chaos --quick', () => {
  it(
    'loses nothing, duplicates nothing and shows the server order through kills and a Redis stop',
    { timeout: 240_000 },
    () => {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'chaos-quick-'));
      try {
        const run = spawnSync(
          process.execPath,
          [
            path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
            'chaos/run.ts',
            '--quick',
            '--no-build',
            '--out',
            out,
          ],
          { cwd: ROOT, encoding: 'utf8', timeout: 230_000 },
        );
        const json = fs.readdirSync(out).find((f) => f.endsWith('.json'));
        expect(json, `${run.stdout}\n${run.stderr}`).toBeDefined();
        const result = JSON.parse(fs.readFileSync(path.join(out, json as string), 'utf8')) as ChaosResult;
        // The run did what it says: both kills and the Redis stop under load, clients recovered, messages flowed.
        expect(result.faults.filter((f) => f.kind === 'kill')).toHaveLength(2);
        expect(result.faults.filter((f) => f.kind === 'redis')).toHaveLength(1);
        expect(result.recovery.count).toBeGreaterThan(0);
        expect(result.sends.acknowledged).toBeGreaterThan(200);
        const md = fs.readFileSync(path.join(out, (json as string).replace(/\.json$/, '.md')), 'utf8');
        expect(mustBeZero(result.figures), md).toEqual({
          'acknowledged messages lost': 0,
          'duplicates on a receiver': 0,
          'order differences (receiver vs server)': 0,
          'events never recovered': 0,
        });
        expect(run.status, md).toBe(0);
      } finally {
        fs.rmSync(out, { recursive: true, force: true });
      }
    },
  );
});
