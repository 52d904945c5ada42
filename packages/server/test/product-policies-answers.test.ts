import type { Caseplan, MeResponse, Organization } from '@caseroom/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allows, POSITIONS, type OperationName, type Position } from '../src/product/permissions.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { get } from './domain-support.js';
import { buildWorld, freshPlan, type World } from './authz-fixtures.js';

/** The `policies` fields of each answer and the permission-table row each one reports. */
const CASEPLAN_ROWS: Record<keyof Caseplan['policies'], OperationName> = {
  read: 'caseplans.read',
  edit: 'caseplans.edit',
  close: 'caseplans.close',
  stats: 'caseplans.stats',
  participate: 'caseplans.participate',
};
const ORGANIZATION_ROWS: Record<keyof Organization['policies'], OperationName> = {
  read: 'organizations.read',
  manage: 'organizations.manage',
  audit: 'organizations.audit',
  readSettings: 'settings.read',
  writeSettings: 'settings.write',
  listCaseplans: 'caseplans.list',
  createCaseplan: 'caseplans.create',
  analytics: 'organizations.analytics',
};

const expected = <K extends string>(rows: Record<K, OperationName>, position: Position) =>
  Object.fromEntries(Object.entries(rows).map(([k, op]) => [k, allows(op as OperationName, [position])]));

const people = POSITIONS.filter((p): p is Exclude<Position, 'anonymous'> => p !== 'anonymous');

/**
 * The abilities the answers carry (`policies` on case plans, organizations and `/api/me`) are the permission table's
 * cells for the viewer's position: what the web shows is what the authorization matrix enforces.
 */
describe('policies in answers match the permission table', () => {
  let server: TestServer;
  let world: World;
  let planId: string;

  beforeAll(async () => {
    server = await startTestServer();
    world = await buildWorld(server);
    planId = (await freshPlan(server.db, world.orgA, world.cast)).id;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it.each(people)('GET /api/caseplans/{id} as %s', async (position) => {
    const r = await get(server, world.cast[position], `/api/caseplans/${planId}`);
    if (!allows('caseplans.read', [position])) {
      expect([403, 404]).toContain(r.status);
      return;
    }
    expect(r.status).toBe(200);
    expect((r.body as Caseplan).policies).toEqual(expected(CASEPLAN_ROWS, position));
    const list = await get(server, world.cast[position], '/api/caseplans');
    const listed = (list.body as Caseplan[]).find((p) => p.id === planId);
    expect(listed?.policies).toEqual(expected(CASEPLAN_ROWS, position));
  });

  it.each(people)('GET /api/organizations as %s', async (position) => {
    const r = await get(server, world.cast[position], '/api/organizations');
    expect(r.status).toBe(200);
    const org = (r.body as Organization[]).find((o) => o.id === world.orgA);
    if (!allows('organizations.read', [position])) {
      expect(org).toBeUndefined();
      return;
    }
    // Organization-scoped rows: a team member counts as `teamOffCaseplan` (docs/permissions.md).
    const orgPosition = position === 'teamOnCaseplan' ? 'teamOffCaseplan' : position;
    expect(org?.policies).toEqual(expected(ORGANIZATION_ROWS, orgPosition));
  });

  it.each(people)('GET /api/me as %s', async (position) => {
    const r = await get(server, world.cast[position], '/api/me');
    expect(r.status).toBe(200);
    expect((r.body as MeResponse).policies).toEqual({
      createOrganization: allows('organizations.create', [position]),
    });
  });
});
