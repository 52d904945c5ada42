import pg from 'pg';
import { chatApi, signToken, type CaseroomDriver } from '../systems/caseroom.js';
import { nowMs, Samples, type LatencySummary } from '../lib/stats.js';

/**
 * History and lists at scale (Caseroom only: the peers' archives have no comparable paged API in this bench).
 * Bulk-loads `messages` messages into one channel and a user into `channels` channels straight into the chat tables
 * (INSERT ... SELECT generate_series), then times the HTTP calls the app makes, one after the other.
 */

export interface HistoryOptions {
  messages: number;
  channels: number;
  /** Requests per measured call. */
  requests: number;
}

export interface HistoryResult {
  messages: number;
  channels: number;
  loadSeconds: number;
  latestPage: LatencySummary;
  deepPage: LatencySummary;
  jump: LatencySummary;
  channelList: LatencySummary;
  deepDepth: number;
}

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
      `INSERT INTO chat_messages (id, cid, user_id, text, created_at, updated_at)
       SELECT 'hm-' || lpad(g::text, 8, '0'), $1, CASE WHEN g % 2 = 0 THEN 'writer' ELSE 'reader' END,
              'history message ' || g || ' with a sentence or two of ordinary length to make the row realistic',
              now() - interval '1 day' + g * interval '1 millisecond',
              now() - interval '1 day' + g * interval '1 millisecond'
         FROM generate_series(1, $2::int) g`,
      [CID, o.messages],
    );
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
      `INSERT INTO chat_messages (id, cid, user_id, text, created_at, updated_at)
       SELECT 'lm-' || g || '-' || k, 'messaging:list-' || g, 'writer', 'list message ' || k,
              now() - g * interval '1 minute' - (5 - k) * interval '1 second',
              now() - g * interval '1 minute' - (5 - k) * interval '1 second'
         FROM generate_series(1, $1::int) g, generate_series(1, 5) k`,
      [o.channels],
    );
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
  const deepDepth = Math.min(100_000, Math.floor(o.messages * 0.9));

  const time = async (body: () => { route: string; payload: unknown }): Promise<LatencySummary> => {
    const samples = new Samples();
    for (let i = 0; i < o.requests + 3; i++) {
      const { route, payload } = body();
      const start = nowMs();
      const reply = await chatApi(node, 'POST', route, token, payload);
      const ms = nowMs() - start;
      if (reply.status !== 201 && reply.status !== 200) {
        throw new Error(`${route}: HTTP ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
      }
      if (i >= 3) samples.add(ms); // the first calls warm caches
    }
    return samples.summary();
  };
  const page = (messages: Record<string, unknown>) => () => ({
    route: '/channels/messaging/history/query',
    payload: { state: true, watch: false, messages: { limit: 25, ...messages } },
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
