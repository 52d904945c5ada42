import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from './lib/report.js';
import { ROOT } from './systems/caseroom.js';

/**
 * Runs `npm run bench -- --quick` (peers included when installed; it never installs them) and checks the report
 * has every scenario with numeric figures, so the bench cannot rot unnoticed.
 */
describe('bench --quick', () => {
  it('reports every scenario with figures', { timeout: 600_000 }, () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-quick-'));
    try {
      execFileSync(
        process.execPath,
        [
          path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
          'bench/run.ts',
          '--quick',
          '--no-install',
          '--out',
          out,
        ],
        {
          cwd: ROOT,
          stdio: 'pipe',
          timeout: 580_000,
        },
      );
      const json = fs.readdirSync(out).find((f) => f.endsWith('.json'));
      expect(json).toBeDefined();
      expect(fs.readdirSync(out).some((f) => f.endsWith('.md'))).toBe(true);
      const report = JSON.parse(fs.readFileSync(path.join(out, json as string), 'utf8')) as Report;
      expect(report.scenarios.map((s) => s.id)).toEqual([
        'fanout',
        'durable',
        'idle',
        'history',
        'two-nodes',
        'reconnect',
        'web',
      ]);
      for (const s of report.scenarios) {
        expect(s.ran.Caseroom ?? s.ran[s.columns[0] as string], s.id).not.toMatch(/^failed/);
        expect(s.rows.length, s.id).toBeGreaterThan(0);
        // The first figure of every scenario is a number measured for Caseroom.
        expect(typeof s.rows[0]?.values[s.columns.indexOf('2 nodes') >= 0 ? 1 : 0], s.id).toBe('number');
      }
      const fanout = report.scenarios.find((s) => s.id === 'fanout');
      for (const peer of ['ejabberd', 'Prosody']) {
        if (report.versions[peer]) expect(fanout?.ran[peer], peer).toBe('ran');
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
