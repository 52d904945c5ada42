import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config, Result } from 'lighthouse';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { freePort } from '../systems/caseroom.js';
import { CHROMIUM, CHROMIUM_ARGS, signIn, type WebServer } from './web-fps.js';

/**
 * Lighthouse (its Node API, performance category only) against Debian's Chromium, which the bench starts itself
 * with a remote-debugging port. Two pages: `/` signed out (the sign-in page), then the chat view of the demo's
 * group channel signed in as Maria. Maria signs in through the form in the same browser profile (Playwright over
 * CDP); Lighthouse's storage reset before each run clears the HTTP cache, service workers and Cache Storage but
 * not cookies or localStorage (its default `clearStorageTypes`), so every run is a cold load and the session
 * (a token in localStorage) survives. Each page runs with the desktop and the mobile preset (Lighthouse's
 * default: simulated slow 4G and 4× CPU slowdown); with `runs` > 1 the run with the median score is kept.
 */

export type Preset = 'desktop' | 'mobile';

export interface LighthouseOptions {
  /** Runs per page and preset; the median-score run is reported. */
  runs: number;
  presets: Preset[];
}

export interface LighthouseRun {
  page: 'home' | 'messenger';
  preset: Preset;
  url: string;
  /** 0–100, median of the runs. */
  score: number;
  scores: number[];
  /** Of the median run, ms (CLS unitless). */
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  speedIndex: number;
  /** The median run's opportunities and diagnostics that cost something, largest first. */
  limits: string[];
  warnings: string[];
  /** Lighthouse's CPU benchmark of the median run (higher is faster; it calls under ~1000 slow hardware). */
  benchmarkIndex: number;
  seconds: number;
}

export interface LighthouseResult {
  lighthouseVersion: string;
  runs: LighthouseRun[];
}

const round = (v: number | undefined, digits = 0) =>
  v === undefined ? Number.NaN : Math.round(v * 10 ** digits) / 10 ** digits;

/** Headless Chromium with a remote-debugging port and a throw-away profile. */
async function launchChromium(): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lighthouse-'));
  const child = spawn(
    CHROMIUM,
    [
      ...CHROMIUM_ARGS,
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      'about:blank',
    ],
    // Own process group, so stop() ends the browser's helper processes with it.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  let err = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Chromium did not open its debugging port: ${err}`)),
        30_000,
      );
      child.stderr?.on('data', (d: Buffer) => {
        err = (err + d.toString()).slice(-4000);
        if (err.includes('DevTools listening on')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Chromium exited (${code}): ${err}`));
      });
    });
  } catch (e) {
    killGroup('SIGKILL');
    fs.rmSync(profile, { recursive: true, force: true });
    throw e;
  }
  return {
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        killGroup('SIGTERM');
        const killer = setTimeout(() => killGroup('SIGKILL'), 5000);
        await exited;
        clearTimeout(killer);
      }
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The path of the chat view of Maria's channel with the most members (the demo's case-plan group). */
async function messengerPath(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ type: string; id: string }>(
      `SELECT c.type, c.id FROM chat_channels c
         JOIN chat_members m ON m.cid = c.cid
         JOIN chat_users u ON u.id = m.user_id AND u.name = 'Maria Lopez'
        ORDER BY (SELECT count(*) FROM chat_members x WHERE x.cid = c.cid) DESC, c.cid
        LIMIT 1`,
    );
    const channel = rows[0];
    if (!channel) throw new Error('the demo user Maria is in no channel');
    return `/app/chat/${encodeURIComponent(channel.type)}/${encodeURIComponent(channel.id)}`;
  } finally {
    await client.end();
  }
}

/**
 * What the run says costs the most: opportunities with estimated savings (largest first), then the failing
 * diagnostics with their figure. The newer "insight" audits repeat the same findings and are left out.
 */
function limitsOf(lhr: Result): string[] {
  const savings: Array<{ text: string; ms: number }> = [];
  const diagnostics: string[] = [];
  for (const ref of lhr.categories.performance?.auditRefs ?? []) {
    const a = lhr.audits[ref.id];
    if (!a || ref.group === 'metrics' || ref.id.endsWith('-insight')) continue;
    if (a.score === null || a.score >= 0.9 || a.scoreDisplayMode === 'informative') continue;
    if (a.details?.type === 'opportunity') {
      const ms = a.details.overallSavingsMs ?? 0;
      const kib = Math.round((a.details.overallSavingsBytes ?? 0) / 1024);
      if (ms > 0 || kib > 0)
        savings.push({ text: `${a.title} (~${Math.round(ms)} ms${kib ? `, ${kib} KiB` : ''})`, ms });
    } else if (a.displayValue) {
      diagnostics.push(`${a.title} (${a.displayValue})`);
    }
  }
  return [...savings.sort((a, b) => b.ms - a.ms).map((s) => s.text), ...diagnostics];
}

let versionSeen = '';

async function runOnce(port: number, url: string, preset: Preset): Promise<Result> {
  // Loaded on first use: the bench does not pay for Lighthouse's large module tree in other scenarios.
  const { default: lighthouse, desktopConfig } = await import('lighthouse');
  const config: Config | undefined = preset === 'desktop' ? desktopConfig : undefined;
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      // Lighthouse's default, spelled out: the reset before each run (and the HTTP cache it clears) leaves
      // localStorage and cookies alone, so the signed-in session survives and every run is still a cold load.
      clearStorageTypes: ['file_systems', 'shader_cache', 'service_workers', 'cache_storage'],
    },
    config,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  versionSeen = lhr.lighthouseVersion;
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  const score = lhr.categories.performance?.score;
  if (score === null || score === undefined) throw new Error(`Lighthouse gave ${url} no performance score`);
  return lhr;
}

async function measure(
  port: number,
  page: LighthouseRun['page'],
  url: string,
  preset: Preset,
  runs: number,
  expectPath: string,
): Promise<LighthouseRun> {
  const started = Date.now();
  const lhrs: Result[] = [];
  for (let i = 0; i < runs; i++) {
    const lhr = await runOnce(port, url, preset);
    // A lost session would measure the sign-in page instead of the chat.
    const landed = new URL(lhr.finalDisplayedUrl).pathname;
    if (landed !== expectPath) throw new Error(`Lighthouse on ${url} ended on ${landed}, not ${expectPath}`);
    lhrs.push(lhr);
  }
  const score = (r: Result) => Math.round((r.categories.performance?.score ?? 0) * 100);
  const sorted = [...lhrs].sort((a, b) => score(a) - score(b));
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as Result;
  const metric = (id: string) => median.audits[id]?.numericValue;
  return {
    page,
    preset,
    url,
    score: score(median),
    scores: lhrs.map(score),
    fcp: round(metric('first-contentful-paint')),
    lcp: round(metric('largest-contentful-paint')),
    tbt: round(metric('total-blocking-time')),
    cls: round(metric('cumulative-layout-shift'), 3),
    speedIndex: round(metric('speed-index')),
    limits: limitsOf(median),
    warnings: median.runWarnings,
    benchmarkIndex: round(median.environment.benchmarkIndex),
    seconds: round((Date.now() - started) / 1000, 1),
  };
}

export async function runLighthouse(server: WebServer, o: LighthouseOptions): Promise<LighthouseResult> {
  const chat = await messengerPath(server.databaseUrl);
  const browser = await launchChromium();
  try {
    const runs: LighthouseRun[] = [];
    // Signed out first: `/` is the sign-in page.
    for (const preset of o.presets)
      runs.push(
        await measure(browser.port, 'home', new URL('/', server.node.url).toString(), preset, o.runs, '/'),
      );
    const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`);
    try {
      const context = cdp.contexts()[0];
      if (!context) throw new Error('Chromium has no default context');
      const page = await context.newPage();
      await signIn(page, server.node.url);
      await page.close();
    } finally {
      // Connected over CDP: this disconnects and leaves the browser (and its profile) running.
      await cdp.close();
    }
    for (const preset of o.presets)
      runs.push(
        await measure(
          browser.port,
          'messenger',
          new URL(chat, server.node.url).toString(),
          preset,
          o.runs,
          chat,
        ),
      );
    return { lighthouseVersion: versionSeen, runs };
  } finally {
    await browser.stop();
  }
}
