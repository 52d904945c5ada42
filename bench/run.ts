import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { machine, pinSelf } from './lib/proc.js';
import { ensurePeers } from './lib/peers.js';
import { toMarkdown, type Report, type ScenarioReport } from './lib/report.js';
import { ROOT, SERVER_MAIN } from './systems/caseroom.js';
import * as suite from './scenarios/suite.js';
import { profileDurable, profileFanout } from './scenarios/profile.js';

/**
 * `npm run bench` (full) and `npm run bench -- --quick` (every scenario small). Options: `--only fanout,durable`,
 * `--systems Caseroom,ejabberd`, `--no-install` (do not apt-get the peers), `--no-build` (use packages/server/dist as it is), `--profile` (only a CPU profile of the server during fan-out; `--profile --only durable` during the durable
 * scenario), `--out <dir>`.
 */

const FULL: suite.Sizes = {
  fanout: { members: 1000, rates: [10, 20, 50, 100, 150, 200, 300, 400, 600, 800, 1000], stepSeconds: 5 },
  durable: { rooms: 50, roomSize: 10, seconds: 15 },
  idle: { count: 19_000, idleSeconds: 10 },
  history: { messages: 1_000_000, channels: 2000, requests: 200 },
  reconnect: { clients: 5000, rooms: 50, stormSeconds: 10, ratePerRoom: 2 },
  fps: { messages: 10_000, seconds: 8 },
  lighthouse: { runs: 3, presets: ['desktop', 'mobile'] },
};

const QUICK: suite.Sizes = {
  fanout: { members: 100, rates: [10, 50, 200], stepSeconds: 1 },
  durable: { rooms: 10, roomSize: 10, seconds: 2 },
  idle: { count: 300, idleSeconds: 2 },
  history: { messages: 20_000, channels: 200, requests: 20 },
  reconnect: { clients: 100, rooms: 10, stormSeconds: 2, ratePerRoom: 2 },
  fps: { messages: 2000, seconds: 3 },
  lighthouse: { runs: 1, presets: ['desktop'] },
};

const SCENARIOS = ['fanout', 'durable', 'idle', 'history', 'two-nodes', 'reconnect', 'web'] as const;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    systems: { type: 'string' },
    'no-install': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});

const log = (m: string) => process.stdout.write(`[bench] ${m}\n`);

async function main(): Promise<void> {
  const started = Date.now();
  const mode = values.quick ? 'quick' : 'full';
  const pinned = pinSelf(1);
  let buildNote = '';
  if (!values['no-build'] || !fs.existsSync(SERVER_MAIN)) {
    // Incremental: fast when dist is current; others may have changed the sources since the last build.
    log('building the server (tsc -b packages/server/tsconfig.build.json)');
    try {
      execSync('npx tsc -b packages/server/tsconfig.build.json', { cwd: ROOT, stdio: 'inherit' });
    } catch {
      if (!fs.existsSync(SERVER_MAIN))
        throw new Error('the server does not build and there is no packages/server/dist');
      buildNote =
        'The server build failed (sources being edited in parallel); the bench ran the existing packages/server/dist.';
      log(buildNote);
    }
  }
  if (!fs.existsSync(path.join(ROOT, 'packages/web/dist/index.html'))) {
    log('building the web app (packages/web/dist is missing)');
    execSync('npm run build -w @caseroom/web', { cwd: ROOT, stdio: 'inherit' });
  }
  const peers = ensurePeers(!values['no-install'], log);
  const wanted = values.systems?.split(',') ?? ['Caseroom', 'ejabberd', 'Prosody'];
  const systems = (['Caseroom', 'ejabberd', 'Prosody'] as const).filter(
    (s) => wanted.includes(s) && (s === 'Caseroom' || peers.versions[s.toLowerCase()]),
  );
  const only = values.only?.split(',') ?? [...SCENARIOS];
  const ctx: suite.SuiteContext = { sizes: values.quick ? QUICK : FULL, systems: [...systems], log };
  const pgVersion = execSync(`psql -h 127.0.0.1 -U root -d postgres -Atc 'SHOW server_version'`)
    .toString()
    .trim();
  const redisVersion =
    /redis_version:(\S+)/.exec(execSync('redis-cli -h 127.0.0.1 info server').toString())?.[1] ?? '?';
  const report: Report = {
    date: new Date().toISOString(),
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    mode,
    durationSeconds: 0,
    machine: machine(),
    versions: {
      Caseroom: JSON.parse(fs.readFileSync(path.join(ROOT, 'packages/server/package.json'), 'utf8'))
        .version as string,
      node: process.version,
      PostgreSQL: pgVersion,
      Redis: redisVersion,
      ...(peers.versions.ejabberd ? { ejabberd: peers.versions.ejabberd } : {}),
      ...(peers.versions.prosody ? { Prosody: peers.versions.prosody } : {}),
      Chromium: safe(() => execSync('/usr/bin/chromium --version').toString().trim()),
    },
    pinning: pinned
      ? 'every server under test runs on core 0 (taskset -c 0), the load generator (this process) on core 1; PostgreSQL, Redis and Chromium are not pinned.'
      : 'taskset failed: nothing is pinned.',
    scenarios: [],
    notes: [...peers.notes, ...(buildNote ? [buildNote] : [])],
  };
  if (values.profile) {
    // Only the profile, with the server under --cpu-prof: the fan-out at a fixed rate, or (`--only durable`) the
    // durable scenario with its figure of server CPU ms per acknowledged message.
    const sizes = values.quick ? QUICK : FULL;
    let profile: Record<string, unknown>;
    if (values.only === 'durable') {
      const summary = await profileDurable(sizes.durable);
      profile = { scenario: 'durable', ...sizes.durable, ...summary };
      log(
        `durable under the profiler: ${summary.durable.ackedPerSec} msgs/s, ack p99 ${summary.durable.ack.p99} ms, ` +
          `server CPU ${summary.durable.serverCpu} % = ${summary.serverCpuMsPerMessage} ms per message`,
      );
    } else {
      const rate = Number(process.env.BENCH_PROFILE_RATE ?? 50);
      const summary = await profileFanout({ ...sizes.fanout, rates: [rate, rate], stepSeconds: 10 });
      profile = { scenario: 'fanout', rate, members: sizes.fanout.members, ...summary };
    }
    const file = path.join(
      values.out ?? path.join(ROOT, 'bench/results'),
      `${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}-profile.json`,
    );
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify({ ...report, profile }, null, 2)}\n`);
    log(`wrote ${file}`);
    return;
  }
  const byId: Record<string, ScenarioReport> = {};
  for (const id of SCENARIOS) {
    if (!only.includes(id)) continue;
    log(`scenario ${id}`);
    const t0 = Date.now();
    try {
      const r =
        id === 'fanout'
          ? await suite.fanout(ctx)
          : id === 'durable'
            ? await suite.durable(ctx)
            : id === 'idle'
              ? await suite.idle(ctx)
              : id === 'history'
                ? await suite.history(ctx)
                : id === 'two-nodes'
                  ? await suite.twoNodes(ctx, { fanout: byId.fanout, durable: byId.durable })
                  : id === 'reconnect'
                    ? await suite.reconnect(ctx)
                    : await suite.web(ctx);
      byId[id] = r;
      report.scenarios.push(r);
    } catch (err) {
      log(`scenario ${id} failed: ${(err as Error).stack ?? String(err)}`);
      report.scenarios.push({
        id,
        title: id,
        description: 'failed',
        columns: ['Caseroom'],
        rows: [],
        ran: { Caseroom: `failed: ${(err as Error).message.split('\n')[0]}` },
        notes: [],
        raw: {},
      });
    }
    log(`  ${id} took ${Math.round((Date.now() - t0) / 1000)} s`);
  }
  report.durationSeconds = Math.round((Date.now() - started) / 1000);
  report.machine.loadAverageAtEnd = os.loadavg().map((n) => Math.round(n * 100) / 100);
  const dir = values.out ?? path.join(ROOT, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = report.date.replace(/[:]/g, '-').replace(/\..+/, '');
  const base = path.join(dir, `${stamp}${values.quick ? '-quick' : ''}`);
  fs.writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(`${base}.md`, toMarkdown(report));
  log(`wrote ${base}.json and ${base}.md`);
}

function safe(fn: () => string): string {
  try {
    return fn();
  } catch {
    return 'not installed';
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
