import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** Process accounting from /proc: CPU ticks and resident memory of a process and its descendants. */

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

function readStat(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    const raw = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces and parentheses.
    const rest = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(rest[1]), ticks: Number(rest[11]) + Number(rest[12]) };
  } catch {
    return undefined;
  }
}

/** `root` and every process below it. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (!stat) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push(Number(name));
    children.set(stat.ppid, list);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop() as number;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Pids of every process whose command name is `name` (e.g. `postgres`). */
export function pidsNamed(name: string): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

/** CPU seconds used so far by the given processes. */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) ticks += readStat(pid)?.ticks ?? 0;
  return ticks / CLK_TCK;
}

/** Resident set size of the given processes, in bytes. */
export function rssBytes(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb * 1024;
}

/** CPU ticks of each process now, for {@link cpuSecondsSince}. */
export function cpuSnapshot(pids: number[]): Map<number, number> {
  return new Map(pids.map((p) => [p, readStat(p)?.ticks ?? 0]));
}

/**
 * CPU seconds the processes `pids` used since `before`: a process started since counts from 0; one that exited in
 * between is left out (summing the set before and the set after would go negative when, say, PostgreSQL backends of
 * another database exit during the window).
 */
export function cpuSecondsSince(before: Map<number, number>, pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const now = readStat(pid)?.ticks;
    if (now !== undefined) ticks += Math.max(0, now - (before.get(pid) ?? 0));
  }
  return ticks / CLK_TCK;
}

/** Measures CPU (as % of one core) of a set of processes and of this generator over a window. */
export class CpuWindow {
  private readonly startWall = performance.now();
  private readonly startServer: Map<number, number>;
  private readonly startDb: Map<number, number>;
  private readonly startGen = process.cpuUsage();

  constructor(
    private readonly serverPids: () => number[],
    private readonly dbPids: () => number[] = () => [],
  ) {
    this.startServer = cpuSnapshot(serverPids());
    this.startDb = cpuSnapshot(dbPids());
  }

  /** CPU use since the window opened, in % of one core. */
  read(): { serverCpu: number; dbCpu: number; generatorCpu: number; seconds: number } {
    const seconds = (performance.now() - this.startWall) / 1000;
    const gen = process.cpuUsage(this.startGen);
    const pct = (cpu: number) => Math.round((cpu / seconds) * 1000) / 10;
    return {
      serverCpu: pct(cpuSecondsSince(this.startServer, this.serverPids())),
      dbCpu: pct(cpuSecondsSince(this.startDb, this.dbPids())),
      generatorCpu: pct((gen.user + gen.system) / 1e6),
      seconds: Math.round(seconds * 10) / 10,
    };
  }
}

/** The generator saturated when it used nearly all of its core. */
export const GENERATOR_SATURATED_PCT = 90;

export function machine() {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    kernel: os.release(),
    loadAverageAtStart: os.loadavg().map((n) => Math.round(n * 100) / 100),
    node: process.version,
  };
}

/** Pins this process (all its threads) to `core`. */
export function pinSelf(core: number): boolean {
  try {
    execFileSync('taskset', ['-a', '-pc', String(core), String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
