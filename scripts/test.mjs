#!/usr/bin/env node
// `npm test`: makes sure the services and the browser the suites need are there, builds, then runs every suite.
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

const log = (msg) => process.stdout.write(`[test] ${msg}\n`);

function reachable(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.setTimeout(1000, () => (socket.destroy(), resolve(false)));
  });
}

async function waitFor(port, name) {
  for (let i = 0; i < 60; i++) {
    if (await reachable(port)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${name} did not come up on port ${port}`);
}

function sh(cmd) {
  log(`$ ${cmd}`);
  execSync(cmd, { stdio: 'inherit', shell: '/bin/bash' });
}

async function ensurePostgres() {
  if (await reachable(5432)) return;
  log('PostgreSQL is not running; starting it');
  sh('pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start');
  await waitFor(5432, 'PostgreSQL');
}

async function ensureRedis() {
  if (await reachable(6379)) return;
  log('Redis is not running; starting it');
  sh('redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no');
  await waitFor(6379, 'Redis');
}

function ensureChromium() {
  if (fs.existsSync('/usr/bin/chromium')) return;
  log("Chromium is missing; installing Debian's chromium");
  sh('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium');
}

function ensureFfmpeg() {
  // Video posters and audio/video durations (issue 14); without it those fields stay empty and nothing fails.
  if (fs.existsSync('/usr/bin/ffmpeg') && fs.existsSync('/usr/bin/ffprobe')) return;
  log("ffmpeg is missing; installing Debian's ffmpeg");
  sh('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ffmpeg');
}

await ensurePostgres();
await ensureRedis();
ensureChromium();
ensureFfmpeg();
sh('npm run build');
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test' },
});
process.exit(result.status ?? 1);
