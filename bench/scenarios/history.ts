import crypto from 'node:crypto';
import pg from 'pg';
import { chatApi, signToken, type CaseroomDriver } from '../systems/caseroom.js';
import type { XmppDriver } from '../systems/xmpp.js';
import type { MamAnswer, MamPage, XmppConnection } from '../systems/xmpp-client.js';
import { cpuSecondsSince, cpuSnapshot } from '../lib/proc.js';
import { nowMs, Samples, type LatencySummary } from '../lib/stats.js';

/**
 * History and lists at scale. Caseroom: bulk-loads `messages` messages into one channel and a user into `channels`
 * channels straight into the chat tables (INSERT ... SELECT generate_series), then times the HTTP calls the app
 * makes, one after the other. ejabberd and Prosody: bulk-loads the same messages into the room's archive table in
 * PostgreSQL (rows as the server itself writes them for a message sent through it), then times the equivalent
 * XEP-0313 MAM queries with XEP-0059 RSM paging over XMPP, one after the other, checking every page's contents.
 * There is no XMPP equivalent of the channel list with unread counts.
 */

export interface HistoryOptions {
  messages: number;
  channels: number;
  /** Requests per measured call. */
  requests: number;
}

/** A timed call: client round trips, and the CPU server and database used per call while they ran. */
export interface TimedCall extends LatencySummary {
  seconds: number;
  /** The server's own time per call, where it says (Caseroom's `Server-Timing: app;dur=…`). */
  serverTime?: LatencySummary;
  serverCpuMsPerCall: number;
  dbCpuMsPerCall: number;
}

export interface HistoryResult {
  messages: number;
  /** Caseroom only (the XMPP peers have no channel list). */
  channels?: number;
  loadSeconds: number;
  latestPage: TimedCall;
  deepPage: TimedCall;
  jump: TimedCall;
  channelList?: TimedCall;
  deepDepth: number;
}

/** Times `o.requests` calls of `call` one after another (after 3 warm-up calls), with CPU per call. */
async function timeCalls(
  requests: number,
  pids: { server: () => number[]; db: () => number[] },
  call: () => Promise<number | undefined>,
): Promise<TimedCall> {
  for (let i = 0; i < 3; i++) await call(); // the first calls warm caches
  const samples = new Samples();
  const serverTimes = new Samples();
  const server = cpuSnapshot(pids.server());
  const db = cpuSnapshot(pids.db());
  const start = nowMs();
  for (let i = 0; i < requests; i++) {
    const t = nowMs();
    const serverMs = await call();
    samples.add(nowMs() - t);
    if (serverMs !== undefined) serverTimes.add(serverMs);
  }
  const perCall = (ms: number) => Math.round((ms * 100) / requests) / 100;
  return {
    ...samples.summary(),
    seconds: Math.round(nowMs() - start) / 1000,
    ...(serverTimes.count ? { serverTime: serverTimes.summary() } : {}),
    serverCpuMsPerCall: perCall(cpuSecondsSince(server, pids.server()) * 1000),
    dbCpuMsPerCall: perCall(cpuSecondsSince(db, pids.db()) * 1000),
  };
}

/** How deep the "deep page" is: 100,000 messages, or 90 % of a smaller channel. */
export const depthOf = (messages: number) => Math.min(100_000, Math.floor(messages * 0.9));

const CID = 'messaging:history';
const id = (n: number) => `hm-${String(n).padStart(8, '0')}`;

async function bulkLoad(url: string, o: HistoryOptions): Promise<void> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query('BEGIN');
    await db.query(`INSERT INTO chat_users (id, name) VALUES ('reader', 'Reader'), ('writer', 'Writer')`);
    await db.query(
      `INSERT INTO chat_channels (cid, type, id, created_by_id, last_message_at)
       VALUES ($1, 'messaging', 'history', 'writer', now())`,
      [CID],
    );
    await db.query(`INSERT INTO chat_members (cid, user_id) VALUES ($1, 'reader'), ($1, 'writer')`, [CID]);
    await db.query(
      `INSERT INTO chat_messages (id, seq, cid, user_id, text, created_at, updated_at)
       SELECT 'hm-' || lpad(g::text, 8, '0'), g, $1, CASE WHEN g % 2 = 0 THEN 'writer' ELSE 'reader' END,
              'history message ' || g || ' with a sentence or two of ordinary length to make the row realistic',
              now() - interval '1 day' + g * interval '1 millisecond',
              now() - interval '1 day' + g * interval '1 millisecond'
         FROM generate_series(1, $2::int) g`,
      [CID, o.messages],
    );
    // Each channel's event counter goes on from its last message (messages take their channel's seq).
    await db.query('UPDATE chat_channels SET last_seq = $2 WHERE cid = $1', [CID, o.messages]);
    // The reader's channel list: `channels` channels, each with a few messages and some unread.
    await db.query(
      `INSERT INTO chat_channels (cid, type, id, name, created_by_id, last_message_at)
       SELECT 'messaging:list-' || g, 'messaging', 'list-' || g, 'Channel ' || g, 'writer',
              now() - g * interval '1 minute'
         FROM generate_series(1, $1::int) g`,
      [o.channels],
    );
    await db.query(
      `INSERT INTO chat_members (cid, user_id, unread_base)
       SELECT 'messaging:list-' || g, u, CASE WHEN u = 'reader' THEN g % 7 ELSE 0 END
         FROM generate_series(1, $1::int) g, unnest(ARRAY['reader', 'writer']) u`,
      [o.channels],
    );
    await db.query(
      `INSERT INTO chat_messages (id, seq, cid, user_id, text, created_at, updated_at)
       SELECT 'lm-' || g || '-' || k, k, 'messaging:list-' || g, 'writer', 'list message ' || k,
              now() - g * interval '1 minute' - (5 - k) * interval '1 second',
              now() - g * interval '1 minute' - (5 - k) * interval '1 second'
         FROM generate_series(1, $1::int) g, generate_series(1, 5) k`,
      [o.channels],
    );
    await db.query(`UPDATE chat_channels SET last_seq = 5 WHERE cid LIKE 'messaging:list-%'`);
    await db.query('COMMIT');
    await db.query('ANALYZE');
  } finally {
    await db.end();
  }
}

export async function runHistory(driver: CaseroomDriver, o: HistoryOptions): Promise<HistoryResult> {
  const t0 = Date.now();
  await bulkLoad(driver.databaseUrl, o);
  const loadSeconds = Math.round((Date.now() - t0) / 100) / 10;
  const node = driver.node(0);
  const token = signToken({ user_id: 'reader' });
  const deepDepth = depthOf(o.messages);
  const pids = { server: () => driver.serverPids(), db: () => driver.dbPids() };

  const time = (body: () => { route: string; payload: unknown }) =>
    timeCalls(o.requests, pids, async () => {
      const { route, payload } = body();
      const reply = await chatApi(node, 'POST', route, token, payload);
      if (reply.status !== 201 && reply.status !== 200) {
        throw new Error(`${route}: HTTP ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
      }
      return reply.serverMs;
    });
  const page = (messages: Record<string, unknown>) => () => ({
    route: '/channels/messaging/history/query',
    // As the SDK's pager asks (channels/channel.ts `page()`), plus watch: false.
    payload: {
      state: true,
      watch: false,
      messages: { limit: 25, ...messages },
      members: { limit: 0 },
      watchers: { limit: 0 },
    },
  });
  let jumpAt = 0;
  return {
    messages: o.messages,
    channels: o.channels,
    loadSeconds,
    deepDepth,
    latestPage: await time(page({})),
    deepPage: await time(page({ id_lt: id(o.messages - deepDepth) })),
    jump: await time(() => {
      // A different target each time, spread over the channel, so no answer is served from a warm page.
      jumpAt = (jumpAt + 7919) % o.messages;
      return page({ id_around: id(1 + jumpAt) })();
    }),
    channelList: await time(() => ({
      route: '/channels',
      payload: {
        filter_conditions: { members: { $in: ['reader'] } },
        sort: [{ field: 'last_message_at', direction: -1 }],
        limit: 25,
        offset: 0,
        state: true,
        watch: false,
        presence: false,
        message_limit: 25,
      },
    })),
  };
}

const ROOM = 'history';
const body = (g: string) =>
  `'history message ' || ${g} || ' with a sentence or two of ordinary length to make the row realistic'`;

/** How each peer stores a MUC message in its PostgreSQL archive, and the archive id of message `g` (1-based). */
interface ArchiveFormat {
  load(db: pg.Client, messages: number): Promise<void>;
  id(g: number): string;
}

function ejabberdFormat(): ArchiveFormat {
  // mod_mam's archive id is the row's `timestamp` (microseconds); one message every millisecond, a day ago.
  const base = (Date.now() - 86_400_000) * 1000;
  return {
    id: (g) => String(base + g * 1000),
    async load(db, messages) {
      // As ejabberd 23.01 writes a groupchat message it archives for a room (old schema, looked at in a real run):
      // `username` the room's bare JID, `peer`/`bare_peer` the sender's real JID, `nick` its room nick, `xml` the
      // stanza as the sender sent it, `txt` the body.
      await db.query(
        `INSERT INTO archive (username, timestamp, peer, bare_peer, xml, txt, kind, nick)
         SELECT '${ROOM}@conference.localhost', $2::bigint + g * 1000, 'writer@localhost/bench-0', 'writer@localhost',
                '<message xml:lang=''en'' to=''${ROOM}@conference.localhost'' from=''writer@localhost/bench-0'' type=''groupchat'' id=''h' || g || ''' xmlns=''jabber:client''><body>' || ${body('g')} || '</body></message>',
                ${body('g')}, 'groupchat', 'writer'
           FROM generate_series(1, $1::int) g`,
        [messages, String(base)],
      );
      await db.query('VACUUM ANALYZE archive');
    },
  };
}

function prosodyFormat(): ArchiveFormat {
  // mod_muc_mam's archive id is the row's `key`, a random UUID; here a UUID made from the message number.
  const base = Math.floor(Date.now() / 1000) - 86_400;
  const uuid = (h: string) =>
    `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  return {
    id: (g) => uuid(crypto.createHash('md5').update(`hm-${g}`).digest('hex')),
    async load(db, messages) {
      // As Prosody 0.12 (mod_muc_mam, mod_storage_sql) writes a room message (looked at in a real run): store
      // `muc_log`, `user` the room's node, `when` in seconds, `with` 'message<groupchat', `value` the stanza as the
      // room broadcast it (from the occupant's room JID, with its occupant-id).
      await db.query(
        `INSERT INTO prosodyarchive (host, "user", store, key, "when", "with", type, value)
         SELECT 'conference.localhost', '${ROOM}', 'muc_log', md5('hm-' || g)::uuid::text, $2::int + g / 1000,
                'message<groupchat', 'xml',
                '<message type=''groupchat'' to=''${ROOM}@conference.localhost'' from=''${ROOM}@conference.localhost/writer'' id=''h' || g || ''' xml:lang=''en''><body>' || ${body('g')} || '</body><occupant-id xmlns=''urn:xmpp:occupant-id:0'' id=''/G7aE4wmbHJcN06fFBfUA6+pSI4UpLuGSpQZ/+WVpD4=''/></message>'
           FROM generate_series(1, $1::int) g`,
        [messages, base],
      );
      await db.query('VACUUM ANALYZE prosodyarchive');
    },
  };
}

/** Throws unless `answer` holds exactly messages `from`..`to` (1-based, oldest first) with their archive ids. */
function checkPage(
  answer: MamAnswer | undefined,
  from: number,
  to: number,
  format: ArchiveFormat,
  what: string,
) {
  const got = (answer?.messages ?? []).map((m) => ({
    g: Number(/^history message (\d+) /.exec(m.body)?.[1]),
    id: m.id,
  }));
  const ok =
    got.length === to - from + 1 &&
    got.every((m, i) => m.g === from + i && m.id === format.id(from + i)) &&
    answer?.first === format.id(from) &&
    answer.last === format.id(to);
  if (!ok) {
    throw new Error(
      `${what}: expected messages ${from}..${to}, got ${got.length} (${got[0]?.g}..${got[got.length - 1]?.g}), first ${answer?.first}, last ${answer?.last}`,
    );
  }
}

/**
 * The peers: one room of `messages` messages bulk-loaded into the archive, one occupant querying it over MAM:
 * the latest page (RSM `<before/>`, max 25), the page before the message `deepDepth` from the end, and the 25
 * messages around a message (two queries sent at once on the stream: max 12 before its id and max 13 after its
 * predecessor's id; the time is until both answered).
 */
export async function runXmppHistory(driver: XmppDriver, o: HistoryOptions): Promise<HistoryResult> {
  if (!driver.database) throw new Error(`${driver.name}: the archive is not in PostgreSQL`);
  const format = driver.name === 'ejabberd' ? ejabberdFormat() : prosodyFormat();
  const n = o.messages;
  let c: XmppConnection | undefined;
  if (driver.name === 'Prosody') {
    // mod_storage_sql creates its tables on its first use of the database: an (empty) archive query first.
    c = await driver.joinForQueries(ROOM, 'reader', 0);
    await c.mamQuery(ROOM, [{ max: 1, before: '' }]);
  }
  const t0 = Date.now();
  const db = new pg.Client({ connectionString: driver.database.url });
  await db.connect();
  try {
    await format.load(db, n);
  } finally {
    await db.end();
  }
  const loadSeconds = Math.round((Date.now() - t0) / 100) / 10;
  const deepDepth = depthOf(n);
  const pids = { server: () => driver.serverPids(), db: () => driver.dbPids() };
  c ??= await driver.joinForQueries(ROOM, 'reader', 0);
  const reader = c;
  try {
    const query = (pages: MamPage[]) => reader.mamQuery(ROOM, pages);
    let total: number | undefined;
    const latestPage = await timeCalls(o.requests, pids, async () => {
      const [a] = await query([{ max: 25, before: '' }]);
      checkPage(a, n - 24, n, format, 'latest page');
      total = a?.count;
      return undefined;
    });
    const deepAt = n - deepDepth;
    const deepPage = await timeCalls(o.requests, pids, async () => {
      const [a] = await query([{ max: 25, before: format.id(deepAt) }]);
      checkPage(a, deepAt - 25, deepAt - 1, format, 'deep page');
      return undefined;
    });
    let jumpAt = 0;
    const jump = await timeCalls(o.requests, pids, async () => {
      // A different target each time, spread over the room, as for Caseroom.
      jumpAt = (jumpAt + 7919) % (n - 25);
      const x = 13 + jumpAt;
      const [before, after] = await query([
        { max: 12, before: format.id(x) },
        { max: 13, after: format.id(x - 1) },
      ]);
      checkPage(before, x - 12, x - 1, format, 'jump, before');
      checkPage(after, x, x + 12, format, 'jump, after');
      return undefined;
    });
    if (total !== n) throw new Error(`the archive counts ${total} messages, not ${n}`);
    return { messages: n, loadSeconds, deepDepth, latestPage, deepPage, jump };
  } finally {
    await reader.close();
  }
}
