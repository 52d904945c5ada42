import { execFileSync, execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/cluster.js';
import { mustBeZero } from './lib/figures.js';
import { toMarkdown } from './lib/report.js';
import { runChaos, type ChaosOptions } from './lib/scenario.js';

/**
 * `npm run chaos`: the reliability suite of issue 13. Real server processes on one database and a private Redis,
 * SDK receivers and concurrent senders; nodes SIGKILLed under load and Redis stopped once; then the server's pages
 * are compared with every receiver. Exits 1 when a must-be-zero figure is not 0.
 * Options: `--quick` (2 nodes, 2 kills, a few seconds of load; the CI mode), `--redis freeze` (SIGSTOP instead of
 * killing Redis), `--no-build`, `--out <dir>` (default chaos/results).
 */

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    redis: { type: 'string', default: 'stop' },
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});

const log = (m: string) => process.stdout.write(`[chaos] ${m}\n`);

const FULL = { nodes: 3, kills: 10, rate: 10, channels: 2, receivers: 2, gapMs: 6000, settleMs: 60_000 };
const QUICK = { nodes: 2, kills: 2, rate: 8, channels: 2, receivers: 2, gapMs: 3000, settleMs: 30_000 };

async function main(): Promise<number> {
  if (!values['no-build']) {
    log('building the server and the SDK (incremental)');
    execSync('npx tsc -b packages/server/tsconfig.build.json packages/sdk/tsconfig.build.json', {
      cwd: ROOT,
      stdio: 'inherit',
    });
  }
  const mode = values.quick ? 'quick' : 'full';
  if (values.redis !== 'stop' && values.redis !== 'freeze') throw new Error('--redis is stop or freeze');
  const options: ChaosOptions = {
    ...(values.quick ? QUICK : FULL),
    redisMode: values.redis,
    redisSeconds: 10,
    log,
  };
  const result = await runChaos(options);
  const date = new Date().toISOString().slice(0, 19).replace(/:/g, '-');
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
  } catch {
    // not a git checkout
  }
  const machine = `${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(1)} at the end, Node ${process.version}`;
  const out = path.resolve(values.out ?? path.join(ROOT, 'chaos/results'));
  fs.mkdirSync(out, { recursive: true });
  const base = path.join(out, `${date}-${mode}`);
  fs.writeFileSync(`${base}.md`, toMarkdown(result, { mode, date, commit, machine }));
  const { nodeLogs, ...figures } = result;
  fs.writeFileSync(`${base}.json`, JSON.stringify({ mode, date, commit, ...figures }, null, 2));
  nodeLogs.forEach((text, i) => fs.writeFileSync(`${base}.node${i}.log`, text));
  const zero = mustBeZero(result.figures);
  for (const [k, v] of Object.entries(zero)) log(`${v === 0 ? 'ok  ' : 'FAIL'} ${k}: ${v}`);
  log(`report: ${path.relative(ROOT, base)}.md`);
  return Object.values(zero).every((v) => v === 0) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`[chaos] ${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  },
);
