import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AnalyticsBatch, AnalyticsReport, type AnalyticsEvent } from '@caseroom/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpOut } from '../src/platform/http-out/index.js';
import { createLogger } from '../src/platform/logger.js';
import { HttpSink } from '../src/product/analytics/http-sink.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { countRows, get, type Person } from './domain-support.js';
import { buildWorld, freshPlan, type World } from './authz-fixtures.js';

/** A receiver on loopback that records what it was sent and answers the statuses it is told, in turn. */
async function receiver(statuses: number[] = []) {
  const requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(statuses.shift() ?? 202, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/ingest`, requests, close: () => server.close() };
}

async function chatOpened(server: TestServer, person: Person | undefined, body: unknown) {
  const res = await fetch(`${server.url}/api/analytics/chat-opened`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(person ? { authorization: `Bearer ${person.token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { recorded?: boolean; error?: { message: string } },
  };
}

/** A case-plan chat of organization A with the plan's team member, client and guest. */
async function planChat(server: TestServer, world: World, planId: string, id = crypto.randomUUID()) {
  const { teamOnCaseplan, client, guest } = world.cast;
  const members = [teamOnCaseplan.uid, client.uid, guest.uid];
  await server.app.chat.server.upsertUsers(members.map((m) => ({ id: m, name: m })));
  const channel = await server.app.chat.server.getOrCreateChannel(
    'messaging',
    id,
    { members, team: world.orgA, caseplans: [planId], organizations: [world.orgA], hasClient: true },
    teamOnCaseplan.uid,
  );
  return channel.cid;
}

interface EventRow {
  name: string;
  organization_id: string;
  caseplan_ids: string[];
  user_id: string;
  cid: string;
  at: Date;
}
const rowsOf = async (server: TestServer, cid: string) =>
  (
    await server.db.query<EventRow>(
      'SELECT name, organization_id, caseplan_ids, user_id, cid, at FROM analytics_events WHERE cid = $1 ORDER BY id',
      [cid],
    )
  ).rows;

/** Issue 15 / product-spec §7: "chat opened" and "chat message sent" reach the database sink and the HTTP sink. */
describe('analytics events', () => {
  let server: TestServer;
  let world: World;
  let planId: string;
  let cid: string;

  beforeAll(async () => {
    server = await startTestServer();
    world = await buildWorld(server);
    planId = (await freshPlan(server.db, world.orgA, world.cast)).id;
    cid = await planChat(server, world, planId);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('records "chat message sent" where lastMessageSentAt is updated: who, where, when, no text', async () => {
    const message = await server.app.chat.server.sendMessage(cid, world.cast.client.uid, {
      text: 'A private thing to say',
    });
    const rows = await rowsOf(server, cid);
    expect(rows).toEqual([
      {
        name: 'chat_message_sent',
        organization_id: world.orgA,
        caseplan_ids: [planId],
        user_id: world.cast.client.uid,
        cid,
        at: new Date(message.created_at),
      },
    ]);
    const { rows: columns } = await server.db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'analytics_events' ORDER BY 1`,
    );
    expect(columns.map((c) => c.column_name)).toEqual([
      'at',
      'caseplan_ids',
      'cid',
      'id',
      'name',
      'organization_id',
      'user_id',
    ]);
    expect(JSON.stringify(rows)).not.toContain('private');
  });

  it('records "chat opened" for a reader of the chat, with organization and case plans from the chat', async () => {
    const r = await chatOpened(server, world.cast.guest, { cid });
    expect(r).toEqual({ status: 200, body: { recorded: true } });
    const rows = (await rowsOf(server, cid)).filter((row) => row.name === 'chat_opened');
    expect(rows).toMatchObject([
      { organization_id: world.orgA, caseplan_ids: [planId], user_id: world.cast.guest.uid, cid },
    ]);
  });

  it('refuses whoever cannot read the chat, an unknown chat, client-sent ids and anonymous callers', async () => {
    const before = await countRows(server.db, 'analytics_events');
    // Staff of the organization who are not members of this chat: the chat's read rule says no.
    for (const person of [world.cast.orgAdmin, world.cast.teamOffCaseplan, world.cast.otherOrganization]) {
      expect((await chatOpened(server, person, { cid })).status).toBe(404);
    }
    // A removed member reads no more.
    await server.app.chat.server.removeMembers(cid, [world.cast.guest.uid]);
    expect((await chatOpened(server, world.cast.guest, { cid })).status).toBe(404);
    await server.app.chat.server.addMembers(cid, [world.cast.guest.uid]);
    expect((await chatOpened(server, world.cast.client, { cid: 'messaging:no-such-chat' })).status).toBe(404);
    // The organization and case plans are the server's to find: a body naming them is refused outright.
    const forged = await chatOpened(server, world.cast.client, {
      cid,
      organization: world.orgB,
      caseplans: ['x'],
    });
    expect(forged.status).toBe(400);
    expect((await chatOpened(server, world.cast.client, { cid: 'not a cid' })).status).toBe(400);
    expect((await chatOpened(server, undefined, { cid })).status).toBe(401);
    expect(await countRows(server.db, 'analytics_events')).toBe(before);
  });

  it('rate-limits "chat opened" per user (120 a minute)', async () => {
    const person = world.cast.teamOnCaseplan;
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await chatOpened(server, person, { cid })).status);
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
    // Another person is not held back by it.
    expect((await chatOpened(server, world.cast.client, { cid })).status).toBe(200);
  });

  it('reports chats opened and messages sent per week and case plan to organization admins', async () => {
    const other = await freshPlan(server.db, world.orgA, world.cast);
    const user = world.cast.teamOnCaseplan.uid;
    await server.db.query('DELETE FROM analytics_events');
    const monday = (weeksAgo: number) => {
      const d = new Date();
      const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
      day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7) - 7 * weeksAgo);
      return day;
    };
    const at = (weeksAgo: number, hours = 10) => new Date(monday(weeksAgo).getTime() + hours * 3_600_000);
    const insert = (name: string, caseplans: string[], when: Date, org = world.orgA) =>
      server.db.query(
        `INSERT INTO analytics_events (name, organization_id, caseplan_ids, user_id, cid, at)
         VALUES ($1, $2, $3, $4, 'messaging:x', $5)`,
        [name, org, caseplans, user, when],
      );
    await insert('chat_opened', [planId], at(0));
    await insert('chat_opened', [planId], at(0, 30));
    await insert('chat_message_sent', [planId, other.id], at(0));
    await insert('chat_message_sent', [], at(0));
    await insert('chat_message_sent', [planId], at(1));
    await insert('chat_opened', [planId], at(9)); // outside 8 weeks
    await insert('chat_opened', [world.planB.id], at(0), world.orgB); // another organization

    const r = await get(server, world.cast.orgAdmin, `/api/organizations/${world.orgA}/analytics`);
    expect(r.status).toBe(200);
    const report = AnalyticsReport.parse(r.body);
    const week = (n: number) => monday(n).toISOString().slice(0, 10);
    expect(report.from).toBe(week(7));
    expect(report.weeks).toBe(8);
    // Both fixture plans are named "Matrix plan": order by name, then id.
    const [first, second] = [planId, other.id].sort();
    const thisWeek = [
      { caseplan: first, chatsOpened: first === planId ? 2 : 0, messagesSent: 1 },
      { caseplan: second, chatsOpened: second === planId ? 2 : 0, messagesSent: 1 },
      { caseplan: null, chatsOpened: 0, messagesSent: 1 },
    ];
    expect(report.rows).toEqual([
      ...thisWeek.map((row) => ({
        week: week(0),
        caseplanName: row.caseplan ? 'Matrix plan' : null,
        ...row,
      })),
      { week: week(1), caseplan: planId, caseplanName: 'Matrix plan', chatsOpened: 0, messagesSent: 1 },
    ]);
    const one = AnalyticsReport.parse(
      (await get(server, world.cast.orgAdmin, `/api/organizations/${world.orgA}/analytics?weeks=1`)).body,
    );
    expect(one.rows.map((row) => row.week)).toEqual([week(0), week(0), week(0)]);
    expect(
      (await get(server, world.cast.orgAdmin, `/api/organizations/${world.orgA}/analytics?weeks=53`)).status,
    ).toBe(400);
    for (const person of [world.cast.teamOnCaseplan, world.cast.client, world.cast.guest]) {
      expect((await get(server, person, `/api/organizations/${world.orgA}/analytics`)).status).toBe(403);
    }
  });
});

describe('analytics HTTP sink', () => {
  it('posts JSON batches to ANALYTICS_HTTP_URL through http-out, with the token, retrying a failed answer', async () => {
    const site = await receiver([503]);
    const server = await startTestServer({
      env: {
        ANALYTICS_HTTP_URL: site.url,
        ANALYTICS_HTTP_TOKEN: 'sink-token-123',
        ANALYTICS_HTTP_FLUSH_MS: '3600000',
        HTTP_OUT_ALLOW: '127.0.0.1',
      },
    });
    try {
      const world = await buildWorld(server);
      const planId = (await freshPlan(server.db, world.orgA, world.cast)).id;
      const cid = await planChat(server, world, planId);
      await server.app.chat.server.sendMessage(cid, world.cast.teamOnCaseplan.uid, { text: 'Secret words' });
      expect((await chatOpened(server, world.cast.client, { cid })).status).toBe(200);
      const sink = server.app.product.analytics.sinks.find((s) => s.name === 'http') as HttpSink;
      expect(site.requests).toEqual([]); // batched, not sent one by one
      await sink.flush();
      // The first answer was 503: the same batch came again and was taken.
      expect(site.requests).toHaveLength(2);
      for (const req of site.requests) {
        expect(req.method).toBe('POST');
        expect(req.url).toBe('/ingest');
        expect(req.headers['content-type']).toBe('application/json');
        expect(req.headers.authorization).toBe('Bearer sink-token-123');
        expect(req.body).not.toContain('Secret');
      }
      const batch = AnalyticsBatch.parse(JSON.parse(site.requests[1]!.body));
      expect(batch.events.map((e) => [e.name, e.organization, e.caseplans, e.user, e.channel])).toEqual([
        ['chat_message_sent', world.orgA, [planId], world.cast.teamOnCaseplan.uid, cid],
        ['chat_opened', world.orgA, [planId], world.cast.client.uid, cid],
      ]);
      // The database sink has them too.
      expect(await countRows(server.db, 'analytics_events')).toBe(2);
    } finally {
      await server.close();
      site.close();
    }
  }, 120_000);

  it('sends in batches of the configured size and never to a private address that is not allow-listed', async () => {
    const site = await receiver();
    const log = createLogger('silent');
    const event: AnalyticsEvent = {
      name: 'chat_opened',
      organization: 'o',
      caseplans: [],
      user: 'u',
      channel: 'messaging:c',
      at: new Date().toISOString(),
    };
    try {
      const allowed = new HttpSink(new HttpOut({ allow: ['127.0.0.1'] }), log, {
        url: site.url,
        batch: 2,
        flushMs: 3_600_000,
      });
      await allowed.record([event, event, event]);
      await allowed.close();
      expect(site.requests.map((r) => AnalyticsBatch.parse(JSON.parse(r.body)).events.length)).toEqual([
        2, 1,
      ]);

      const refused = new HttpSink(new HttpOut(), log, {
        url: site.url,
        batch: 10,
        flushMs: 3_600_000,
        attempts: 1,
      });
      await refused.record([event]);
      await refused.close();
      expect(site.requests).toHaveLength(2);
    } finally {
      site.close();
    }
  });
});
