import type { Driver, IdleClient } from '../lib/driver.js';
import { cpuSeconds, rssBytes } from '../lib/proc.js';
import { pool, sleep } from '../lib/stats.js';

/**
 * Idle connections: `count` authenticated sockets that then do nothing. Memory per connection is the server's RSS
 * growth divided by the count; idle CPU is the server's CPU over `idleSeconds` with every socket open.
 */

export interface IdleOptions {
  count: number;
  idleSeconds: number;
}

export interface IdleResult {
  requested: number;
  connected: number;
  failed: number;
  connectSeconds: number;
  rssBeforeMB: number;
  rssAfterMB: number;
  bytesPerConnection: number;
  idleCpu: number;
}

export async function runIdle(driver: Driver, o: IdleOptions): Promise<IdleResult> {
  const users = Array.from({ length: o.count }, (_, i) => `idle${i}`);
  await sleep(1000);
  const before = rssBytes(driver.serverPids());
  const start = Date.now();
  let failed = 0;
  const clients = (
    await pool(users, 64, (user, i) =>
      driver.connectIdle(user, i).catch(() => {
        failed++;
        return undefined;
      }),
    )
  ).filter((c): c is IdleClient => c !== undefined);
  const connectSeconds = (Date.now() - start) / 1000;
  // Let allocations settle before measuring.
  await sleep(2000);
  const pids = driver.serverPids();
  const cpu0 = cpuSeconds(pids);
  const t0 = performance.now();
  await sleep(o.idleSeconds * 1000);
  const idleCpu = ((cpuSeconds(pids) - cpu0) / ((performance.now() - t0) / 1000)) * 100;
  const after = rssBytes(pids);
  await pool(clients, 200, (c) => c.close());
  return {
    requested: o.count,
    connected: clients.length,
    failed,
    connectSeconds: Math.round(connectSeconds * 10) / 10,
    rssBeforeMB: Math.round(before / 2 ** 20),
    rssAfterMB: Math.round(after / 2 ** 20),
    bytesPerConnection: clients.length ? Math.round((after - before) / clients.length) : Number.NaN,
    idleCpu: Math.round(idleCpu * 10) / 10,
  };
}
