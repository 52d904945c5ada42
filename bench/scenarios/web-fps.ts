import zlib from 'node:zlib';
import pg from 'pg';
import { chromium, type Page } from 'playwright-core';
import { createDatabase, startNode, type CaseroomNode } from '../systems/caseroom.js';

/**
 * Scroll smoothness: the demo data's Maria gets a channel of `messages` messages (bulk-loaded in SQL); Chromium
 * (Debian's, headless) signs in, opens the channel and scrolls up through it for `seconds`, one step per
 * animation frame, while the page records its frame times. The server runs on the server core; the browser is
 * not pinned (it has several processes).
 *
 * Also the pieces the Lighthouse runs (lighthouse.ts) share: the server with the demo data, the Chromium binary
 * and its flags, and signing Maria in.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A Caseroom server (server core) on a fresh database seeded with the demo organization. */
export interface WebServer {
  node: CaseroomNode;
  databaseUrl: string;
  stop(): Promise<void>;
}

export async function startWebServer(): Promise<WebServer> {
  const db = await createDatabase();
  try {
    const node = await startNode(db.url, { core: 0, env: { NODE_ENV: 'test', SEED_DEMO: '1' } });
    return {
      node,
      databaseUrl: db.url,
      async stop() {
        await node.stop();
        await db.drop();
      },
    };
  } catch (err) {
    await db.drop();
    throw err;
  }
}

/** Signs the demo's Maria in through the sign-in form of `/` and waits for the app. */
export async function signIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(new URL('/', baseUrl).toString());
  await page.getByLabel('E-mail').fill('maria@caseroom.test');
  await page.getByLabel('Password').fill('caseroom-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/app'));
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

export interface FpsOptions {
  messages: number;
  seconds: number;
}

export interface FpsResult {
  frames: number;
  fpsMean: number;
  frameP95: number;
  messagesRendered: number;
  jsGzipBytes: number;
  notes: string[];
}

/** Runs in the page: scrolls the message list up one step per animation frame and records frame times. */
const SCROLL_SCRIPT = `async function (seconds) {
  const logEl = document.querySelector('[role="log"]');
  let el = document.querySelector('[data-virtuoso-scroller="true"]');
  if (!el && logEl) el = [...logEl.querySelectorAll('*')].find((x) => x.scrollHeight > x.clientHeight + 10) || null;
  if (!el) throw new Error('no scrollable message list');
  const times = [];
  const ids = new Set();
  await new Promise((resolve) => {
    const end = performance.now() + seconds * 1000;
    let last = performance.now();
    const step = (t) => {
      times.push(t - last);
      last = t;
      el.scrollTop = Math.max(0, el.scrollTop - 120);
      for (const item of el.querySelectorAll('[data-index]')) ids.add((item.textContent || '').slice(0, 40));
      if (t < end) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
  return { times, rendered: ids.size };
}`;

/** Runs on `server` (see startWebServer); adds the long channel to its database. */
export async function measureScrollFps(server: WebServer, o: FpsOptions): Promise<FpsResult> {
  const { node } = server;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ baseURL: node.url, viewport: { width: 1280, height: 900 } });
    // Each script once: navigations answer files already loaded from the browser's cache (hashed assets are
    // immutable) and those responses must not count again.
    const jsGzip = new Map<string, number>();
    page.on('response', (res) => {
      const url = res.url().split('?')[0] as string;
      if (url.endsWith('.js') && res.ok() && !jsGzip.has(url)) {
        jsGzip.set(url, 0);
        void res
          .body()
          .then((b) => jsGzip.set(url, zlib.gzipSync(b, { level: 6 }).length))
          .catch(() => undefined);
      }
    });
    await signIn(page, node.url);

    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>(
        `SELECT id FROM chat_users WHERE name = 'Maria Lopez' LIMIT 1`,
      );
      const maria = rows[0]?.id;
      if (!maria) throw new Error('demo user Maria has no chat user');
      await client.query(
        `INSERT INTO chat_channels (cid, type, id, name, created_by_id, last_message_at) VALUES ('messaging:bench-scroll', 'messaging', 'bench-scroll', 'Bench scroll', $1, now())`,
        [maria],
      );
      await client.query(`INSERT INTO chat_members (cid, user_id) VALUES ('messaging:bench-scroll', $1)`, [
        maria,
      ]);
      await client.query(
        `INSERT INTO chat_messages (id, seq, cid, user_id, text, created_at, updated_at)
         SELECT 'bs-' || g, g, 'messaging:bench-scroll', $1,
                'Scroll message ' || g || repeat(' lorem ipsum dolor', 1 + g % 12),
                now() - interval '1 day' + g * interval '1 second', now() - interval '1 day' + g * interval '1 second'
           FROM generate_series(1, $2::int) g`,
        [maria, o.messages],
      );
      await client.query(`UPDATE chat_channels SET last_seq = $1 WHERE cid = 'messaging:bench-scroll'`, [
        o.messages,
      ]);
      await client.query('ANALYZE');
    } finally {
      await client.end();
    }
    await page.goto('/app/chat/messaging/bench-scroll');
    const log = page.getByRole('log', { name: 'Messages' });
    await log.waitFor();
    await page
      .getByText(`Scroll message ${o.messages} `, { exact: false })
      .first()
      .waitFor({ timeout: 30_000 });
    // Passed as source text: the bench runs under tsx, whose helpers do not exist in the page.
    const result = (await page.evaluate(`(${SCROLL_SCRIPT})(${o.seconds})`)) as {
      times: number[];
      rendered: number;
    };
    const frames = result.times.slice(1);
    const sorted = [...frames].sort((a, b) => a - b);
    const total = frames.reduce((a, b) => a + b, 0) / 1000;
    return {
      frames: frames.length,
      fpsMean: Math.round((frames.length / total) * 10) / 10,
      frameP95: Math.round((sorted[Math.ceil(sorted.length * 0.95) - 1] ?? Number.NaN) * 10) / 10,
      messagesRendered: result.rendered,
      jsGzipBytes: [...jsGzip.values()].reduce((a, b) => a + b, 0),
      notes: [
        `Scrolled up 120 px per frame for ${o.seconds} s through a ${o.messages}-message channel; ${result.rendered} distinct list rows rendered on the way (older pages load as the list nears its top). Headless Chromium with --disable-gpu renders in software, so FPS is a floor.`,
      ],
    };
  } finally {
    await browser.close();
  }
}
