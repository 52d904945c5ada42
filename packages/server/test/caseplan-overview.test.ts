import { CaseplanOverview, strictSchema, type CaseplanOverviewItem } from '@caseroom/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Position } from '../src/product/permissions.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { get, type Person } from './domain-support.js';
import { buildWorld, freshPlan, type PlanFixture, type World } from './authz-fixtures.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);
const ahead = (ms: number) => new Date(Date.now() + ms);
const STRICT = strictSchema(CaseplanOverview);

/**
 * `GET /api/caseplans/overview` (the case-plan home) over HTTP on PostgreSQL: what each position sees, and the
 * attention rules of `docs/caseplan-home.md` one row at a time.
 */
describe('case-plan home (GET /api/caseplans/overview)', () => {
  let server: TestServer;
  let world: World;

  beforeAll(async () => {
    server = await startTestServer();
    world = await buildWorld(server);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const person = (p: Exclude<Position, 'anonymous'>): Person => world.cast[p];

  async function overview(who: Person | undefined, organization = world.orgA) {
    const r = await get(server, who, `/api/caseplans/overview?organization=${organization}`);
    if (r.status === 200) STRICT.parse(r.body);
    return { status: r.status, body: r.body as CaseplanOverview };
  }

  async function itemOf(who: Person, planId: string): Promise<CaseplanOverviewItem | undefined> {
    const { status, body } = await overview(who);
    expect(status).toBe(200);
    return body.caseplans.find((c) => c.id === planId);
  }

  /** Sets a person's statistics on a plan (what the chat hook and session-selectCaseplan record). */
  async function stats(
    plan: PlanFixture,
    who: Person,
    s: { opened?: Date | null; sent?: Date | null; toClient?: Date | null },
  ) {
    await server.db.query(
      `INSERT INTO caseplan_stats (caseplan_id, user_id, last_opened_at, last_message_sent_at,
                                   last_message_to_client_at, updated)
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (caseplan_id, user_id) DO UPDATE SET last_opened_at = EXCLUDED.last_opened_at,
         last_message_sent_at = EXCLUDED.last_message_sent_at,
         last_message_to_client_at = EXCLUDED.last_message_to_client_at`,
      [plan.id, who.uid, s.opened ?? null, s.sent ?? null, s.toClient ?? null],
    );
  }

  async function event(plan: PlanFixture, title: string, startsAt: Date, attendee?: Person) {
    const id = `${plan.id}-${title}`;
    await server.db.query(
      `INSERT INTO events (id, caseplan_id, title, starts_at, created_by) VALUES ($1, $2, $3, $4, $5)`,
      [id, plan.id, title, startsAt, world.cast.teamOnCaseplan.uid],
    );
    if (attendee) {
      await server.db.query(
        `INSERT INTO event_attendees (event_id, role_id)
         SELECT $1, id FROM roles WHERE caseplan_id = $2 AND user_id = $3`,
        [id, plan.id, attendee.uid],
      );
    }
  }

  /** A plan everyone on it opened just now, so only the rule under test can fire. */
  async function plan(opts: { closed?: boolean } = {}) {
    const p = await freshPlan(server.db, world.orgA, world.cast, opts);
    for (const who of ['teamOnCaseplan', 'client', 'guest'] as const) {
      await stats(p, person(who), { opened: new Date() });
    }
    return p;
  }

  it('answers each position the plans it may read, with staff facts only where policies.stats allows', async () => {
    const p = await plan();
    await stats(p, person('client'), { opened: new Date(), sent: ago(2 * HOUR) });
    await stats(p, person('teamOnCaseplan'), {
      opened: new Date(),
      sent: ago(5 * HOUR),
      toClient: ago(5 * HOUR),
    });

    const expected: Record<
      Exclude<Position, 'anonymous'>,
      number | 'listed-staff' | 'listed-own' | 'absent'
    > = {
      superAdmin: 403,
      orgAdmin: 'listed-staff',
      teamOnCaseplan: 'listed-staff',
      teamOffCaseplan: 'absent',
      client: 'listed-own',
      guest: 'listed-own',
      clientOffCaseplan: 'absent',
      otherOrganization: 403,
    };
    for (const [position, outcome] of Object.entries(expected) as [
      Exclude<Position, 'anonymous'>,
      typeof expected.client,
    ][]) {
      const { status, body } = await overview(person(position));
      if (typeof outcome === 'number') {
        expect({ position, status }).toEqual({ position, status: outcome });
        continue;
      }
      expect({ position, status }).toEqual({ position, status: 200 });
      const item = body.caseplans.find((c) => c.id === p.id);
      if (outcome === 'absent') {
        expect({ position, item }).toEqual({ position, item: undefined });
        continue;
      }
      expect(item, position).toBeDefined();
      expect(item?.policies.stats, position).toBe(outcome === 'listed-staff');
      if (outcome === 'listed-staff') {
        expect(item?.staff, position).toEqual({
          clientWaitingSince: expect.any(String),
          lastStaffReplyAt: expect.any(String),
          people: { active: 3, clients: 1, guests: 1 },
        });
        expect(item?.attention, position).toContain('clientWaiting');
      } else {
        expect(item?.staff, position).toBeNull();
        expect(item?.attention, position).not.toContain('clientWaiting');
      }
    }
    expect((await overview(undefined)).status).toBe(401);
    expect((await overview(person('orgAdmin'), 'no-such-org')).status).toBe(403);
  });

  it('lets a client see their own last activity, never the staff members\u2019', async () => {
    const p = await plan();
    const staffLate = ahead(0);
    await stats(p, person('teamOnCaseplan'), { opened: new Date(), sent: staffLate });
    await stats(p, person('client'), { opened: new Date(), sent: ago(3 * DAY) });
    const staffView = await itemOf(person('teamOnCaseplan'), p.id);
    const clientView = await itemOf(person('client'), p.id);
    expect(Date.parse(staffView!.lastActivityAt)).toBe(staffLate.getTime());
    expect(Date.parse(clientView!.lastActivityAt)).toBeLessThan(staffLate.getTime());
    expect(clientView!.lastOpenedAt).not.toBeNull();
  });

  /** The attention rules, one row each: the set-up, then what the team member on the plan is shown. */
  const RULES: {
    rule: string;
    closed?: boolean;
    setUp: (p: PlanFixture) => Promise<void>;
    staff: string[];
    client: string[];
  }[] = [
    {
      rule: 'a client wrote after the staff last wrote to a client: waiting',
      setUp: async (p) => {
        await stats(p, person('teamOnCaseplan'), {
          opened: new Date(),
          toClient: ago(3 * HOUR),
          sent: ago(3 * HOUR),
        });
        await stats(p, person('client'), { opened: new Date(), sent: ago(1 * HOUR) });
      },
      staff: ['clientWaiting'],
      client: [],
    },
    {
      rule: 'the staff answered after the client: not waiting',
      setUp: async (p) => {
        await stats(p, person('client'), { opened: new Date(), sent: ago(3 * HOUR) });
        await stats(p, person('teamOnCaseplan'), {
          opened: new Date(),
          toClient: ago(1 * HOUR),
          sent: ago(1 * HOUR),
        });
      },
      staff: [],
      client: [],
    },
    {
      rule: 'a client wrote and no staff ever wrote to a client: waiting',
      setUp: async (p) => {
        await stats(p, person('client'), { opened: new Date(), sent: ago(1 * HOUR) });
      },
      staff: ['clientWaiting'],
      client: [],
    },
    {
      rule: 'staff wrote later, but only in a chat without a client: still waiting',
      setUp: async (p) => {
        await stats(p, person('teamOnCaseplan'), {
          opened: new Date(),
          toClient: ago(5 * HOUR),
          sent: ago(10_000),
        });
        await stats(p, person('client'), { opened: new Date(), sent: ago(2 * HOUR) });
      },
      staff: ['clientWaiting'],
      client: [],
    },
    {
      rule: 'a guest wrote after the staff: nobody is waiting (guests are not clients)',
      setUp: async (p) => {
        await stats(p, person('teamOnCaseplan'), { opened: new Date(), toClient: ago(5 * HOUR) });
        await stats(p, person('guest'), { opened: new Date(), sent: ago(1 * HOUR), toClient: ago(1 * HOUR) });
      },
      staff: [],
      client: [],
    },
    {
      rule: 'a closed plan needs nobody, waiting client or not',
      closed: true,
      setUp: async (p) => {
        await stats(p, person('client'), { opened: new Date(), sent: ago(1 * HOUR) });
        await stats(p, person('teamOnCaseplan'), { opened: ago(40 * DAY) });
        await event(p, 'Soon', ahead(DAY), person('client'));
      },
      staff: [],
      client: [],
    },
    {
      rule: 'opened 20 days ago: not opened for a while',
      setUp: async (p) => {
        await stats(p, person('teamOnCaseplan'), { opened: ago(20 * DAY) });
        await stats(p, person('client'), { opened: ago(20 * DAY) });
      },
      staff: ['notOpened'],
      client: [],
    },
    {
      rule: 'opened 3 days ago: fine',
      setUp: async (p) => {
        await stats(p, person('teamOnCaseplan'), { opened: ago(3 * DAY) });
      },
      staff: [],
      client: [],
    },
    {
      rule: 'never opened, joined 20 days ago: not opened for a while',
      setUp: async (p) => {
        await server.db.query('DELETE FROM caseplan_stats WHERE caseplan_id = $1 AND user_id = $2', [
          p.id,
          person('teamOnCaseplan').uid,
        ]);
        await server.db.query(
          `UPDATE caseplan_users SET created = now() - interval '20 days' WHERE caseplan_id = $1 AND user_id = $2`,
          [p.id, person('teamOnCaseplan').uid],
        );
      },
      staff: ['notOpened'],
      client: [],
    },
    {
      rule: 'never opened, joined today: not yet "for a while"',
      setUp: async (p) => {
        await server.db.query('DELETE FROM caseplan_stats WHERE caseplan_id = $1 AND user_id = $2', [
          p.id,
          person('teamOnCaseplan').uid,
        ]);
      },
      staff: [],
      client: [],
    },
    {
      rule: 'an event tomorrow for the client: soon for both',
      setUp: async (p) => event(p, 'Visit', ahead(DAY), person('client')),
      staff: ['eventSoon'],
      client: ['eventSoon'],
    },
    {
      rule: 'an event tomorrow without the client: soon for the staff only',
      setUp: async (p) => event(p, 'Team meeting', ahead(DAY)),
      staff: ['eventSoon'],
      client: [],
    },
    {
      rule: 'an event in 20 days: not upcoming yet',
      setUp: async (p) => event(p, 'Review', ahead(20 * DAY), person('client')),
      staff: [],
      client: [],
    },
    {
      rule: 'an event yesterday: over',
      setUp: async (p) => event(p, 'Past', ago(DAY), person('client')),
      staff: [],
      client: [],
    },
  ];

  it.each(RULES.map((r) => [r.rule, r] as const))('%s', async (_rule, r) => {
    const p = await plan({ closed: r.closed });
    await r.setUp(p);
    const staff = await itemOf(person('teamOnCaseplan'), p.id);
    const client = await itemOf(person('client'), p.id);
    expect(staff?.attention).toEqual(r.staff);
    expect(client?.attention).toEqual(r.client);
    // The organization admin oversees the plan without working on it: the same, but never "not opened".
    const admin = await itemOf(person('orgAdmin'), p.id);
    expect(admin?.attention).toEqual(r.staff.filter((x) => x !== 'notOpened'));
  });

  it('names the next event and counts the upcoming ones, the client only their own', async () => {
    const p = await plan();
    await event(p, 'B staff review', ahead(2 * HOUR));
    await event(p, 'C home visit', ahead(2 * DAY), person('client'));
    await event(p, 'D follow-up', ahead(5 * DAY), person('client'));
    const staff = await itemOf(person('teamOnCaseplan'), p.id);
    expect(staff?.nextEvent).toMatchObject({ title: 'B staff review', endsAt: null });
    expect(staff?.upcomingEvents).toBe(3);
    const client = await itemOf(person('client'), p.id);
    expect(client?.nextEvent).toMatchObject({ title: 'C home visit' });
    expect(client?.upcomingEvents).toBe(2);
    const guest = await itemOf(person('guest'), p.id);
    expect(guest?.nextEvent).toBeNull();
    expect(guest?.upcomingEvents).toBe(0);
  });

  it('answers hundreds of plans in one request, each with its own facts', async () => {
    const other = await buildWorld(server);
    const lead = other.cast.teamOnCaseplan;
    const ids = await server.db.query<{ id: string }>(
      `INSERT INTO caseplans (id, organization_id, name, created_by)
       SELECT 'bulk-' || n, $1, 'Bulk plan ' || lpad(n::text, 3, '0'), $2 FROM generate_series(1, 300) n
       RETURNING id`,
      [other.orgA, lead.uid],
    );
    await server.db.query(
      `INSERT INTO caseplan_users (caseplan_id, user_id) SELECT id, $2 FROM caseplans WHERE organization_id = $1
         AND id LIKE 'bulk-%'`,
      [other.orgA, lead.uid],
    );
    await server.db.query(
      `INSERT INTO caseplan_users (caseplan_id, user_id, client)
       SELECT id, $1, true FROM caseplans WHERE id LIKE 'bulk-%' AND right(id, 1) = '7'`,
      [other.cast.client.uid],
    );
    await server.db.query(
      `INSERT INTO caseplan_stats (caseplan_id, user_id, last_opened_at, last_message_sent_at)
       SELECT id, $1, now(), now() - interval '1 hour' FROM caseplans WHERE id LIKE 'bulk-%' AND right(id, 1) = '7'`,
      [other.cast.client.uid],
    );
    const { status, body } = await overview(lead, other.orgA);
    expect(status).toBe(200);
    const bulk = body.caseplans.filter((c) => c.id.startsWith('bulk-'));
    expect(bulk).toHaveLength(ids.rowCount ?? 0);
    expect(bulk.filter((c) => c.attention.includes('clientWaiting'))).toHaveLength(30);
    expect(bulk.find((c) => c.id === 'bulk-17')?.staff?.people).toEqual({ active: 2, clients: 1, guests: 0 });
  });
});
