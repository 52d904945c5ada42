import type { Caseplan, SettingsDoc } from '@caseroom/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Position } from '../src/product/permissions.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { call, get, ok, type Person } from './domain-support.js';
import { buildWorld, freshPlan, type World } from './authz-fixtures.js';

const CASEPLAN_FIELDS = {
  type: 'object',
  properties: {
    goal: { type: 'string', title: 'Goal' },
    risk: { type: 'string', title: 'Risk assessment', 'x-visibility': 'staff' },
    school: { type: 'string', 'x-visibility': 'everyone' },
  },
  required: ['goal', 'risk'],
};
const CLIENT_FIELDS = {
  type: 'object',
  properties: {
    phone: { type: 'string' },
    notes: { type: 'string', 'x-visibility': 'staff' },
  },
  required: ['notes'],
};
const VALUES = { goal: 'Stable housing', risk: 'High: eviction notice', school: 'Northside' };

/** Positions that read the plan, and whether each is staff (sees staff-only fields). */
const PLAN_READERS: [Position, boolean][] = [
  ['orgAdmin', true],
  ['teamOnCaseplan', true],
  ['client', false],
  ['guest', false],
];
/** Positions that read the settings documents (`settings.read`), and whether each is staff. */
const SETTINGS_READERS: [Position, boolean][] = [
  ...PLAN_READERS,
  ['teamOffCaseplan', true],
  ['clientOffCaseplan', false],
];

/**
 * Issue 15, field visibility: staff-only custom fields (`"x-visibility": "staff"`) are absent from every answer to
 * clients and guests — the case plan's values (single read, lists) and the settings documents' schemas — and a
 * staff edit keeps them. Real server, real PostgreSQL, the authorization matrix's cast of positions.
 */
describe('field visibility', () => {
  let server: TestServer;
  let world: World;
  let planId: string;

  const as = (p: Position): Person => world.cast[p as Exclude<Position, 'anonymous'>];

  beforeAll(async () => {
    server = await startTestServer();
    world = await buildWorld(server);
    const admin = world.cast.orgAdmin;
    for (const [doc, schema] of [
      ['caseplan-fields', CASEPLAN_FIELDS],
      ['client-fields', CLIENT_FIELDS],
    ] as const) {
      await ok(server, admin, 'settings-set', { organizationId: world.orgA, doc, schema });
    }
    planId = (await freshPlan(server.db, world.orgA, world.cast)).id;
    await ok(server, admin, 'caseplans-updateCustom', { caseplanId: planId, custom: VALUES });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const expectedCustom = (staff: boolean) => (staff ? VALUES : { goal: VALUES.goal, school: VALUES.school });

  it.each(PLAN_READERS)('GET /api/caseplans/{id} as %s (staff: %s)', async (position, staff) => {
    const r = await get(server, as(position), `/api/caseplans/${planId}`);
    expect(r.status).toBe(200);
    expect((r.body as Caseplan).custom).toEqual(expectedCustom(staff));
    // Not a value hidden under another name: the text is nowhere in the answer.
    expect(JSON.stringify(r.body).includes(VALUES.risk)).toBe(staff);
  });

  it.each(PLAN_READERS)('GET /api/caseplans (all, and by organization) as %s', async (position, staff) => {
    for (const path of ['/api/caseplans', `/api/caseplans?organization=${world.orgA}`]) {
      const r = await get(server, as(position), path);
      expect(r.status).toBe(200);
      const plan = (r.body as Caseplan[]).find((p) => p.id === planId);
      expect(plan?.custom, path).toEqual(expectedCustom(staff));
      expect(JSON.stringify(r.body).includes(VALUES.risk)).toBe(staff);
    }
  });

  it.each(SETTINGS_READERS)('settings documents as %s (staff: %s)', async (position, staff) => {
    const person = as(position);
    for (const [doc, schema] of [
      ['caseplan-fields', CASEPLAN_FIELDS],
      ['client-fields', CLIENT_FIELDS],
    ] as const) {
      const viaGet = await get(server, person, `/api/organizations/${world.orgA}/settings/${doc}`);
      expect(viaGet.status).toBe(200);
      const viaCall = await ok<SettingsDoc>(server, person, 'settings-get', {
        organizationId: world.orgA,
        doc,
      });
      for (const answer of [viaGet.body as SettingsDoc, viaCall]) {
        if (staff) {
          expect(answer.schema).toEqual(schema);
          continue;
        }
        const properties = answer.schema.properties as Record<string, unknown>;
        const hidden = Object.entries(schema.properties)
          .filter(([, p]) => (p as Record<string, unknown>)['x-visibility'] === 'staff')
          .map(([name]) => name);
        expect(hidden.length).toBeGreaterThan(0);
        for (const name of hidden) expect(properties).not.toHaveProperty(name);
        expect(Object.keys(properties).length).toBe(Object.keys(schema.properties).length - hidden.length);
        expect(answer.schema.required).toEqual(schema.required.filter((n) => !hidden.includes(n)));
        expect(JSON.stringify(answer)).not.toContain('"x-visibility":"staff"');
      }
    }
  });

  it('clients and guests cannot write custom fields, staff-only or not', async () => {
    for (const position of ['client', 'guest'] as const) {
      const r = await call(server, as(position), 'caseplans-updateCustom', {
        caseplanId: planId,
        custom: { goal: 'Changed by a client', risk: null },
      });
      expect(r.status).toBe(403);
    }
    const r = await get(server, world.cast.orgAdmin, `/api/caseplans/${planId}`);
    expect((r.body as Caseplan).custom).toEqual(VALUES);
  });

  it('a staff edit of other fields keeps the staff-only values', async () => {
    const result = await ok<Record<string, unknown>>(
      server,
      world.cast.teamOnCaseplan,
      'caseplans-updateCustom',
      {
        caseplanId: planId,
        custom: { goal: 'Stable housing by spring' },
      },
    );
    expect(result).toEqual({ ...VALUES, goal: 'Stable housing by spring' });
    const staffView = await get(server, world.cast.teamOnCaseplan, `/api/caseplans/${planId}`);
    expect((staffView.body as Caseplan).custom.risk).toBe(VALUES.risk);
    const clientView = await get(server, world.cast.client, `/api/caseplans/${planId}`);
    expect((clientView.body as Caseplan).custom).toEqual({
      goal: 'Stable housing by spring',
      school: VALUES.school,
    });
    // Put back for the other cases.
    await ok(server, world.cast.orgAdmin, 'caseplans-updateCustom', { caseplanId: planId, custom: VALUES });
  });

  it('refuses an unknown visibility in a schema', async () => {
    const r = await call(server, world.cast.orgAdmin, 'settings-set', {
      organizationId: world.orgA,
      doc: 'caseplan-fields',
      schema: { type: 'object', properties: { x: { type: 'string', 'x-visibility': 'staf' } } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toMatch(/x-visibility/);
  });
});
