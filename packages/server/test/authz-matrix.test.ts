import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, POSITIONS, type Position } from '../src/product/permissions.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { countRows, get } from './domain-support.js';
import { buildWorld, type World } from './authz-fixtures.js';
import { RUNNERS } from './authz-cases.js';

/**
 * Reads that refuse outsiders with product-spec §8's 'User is not part of the organization' (403): they
 * answer exactly the same for an organization id that does not exist (checked below), so nothing leaks.
 */
const SAME_ANSWER_FOR_UNKNOWN = new Set([
  'GET /api/caseplans?organization={id}',
  'GET /api/caseplans/overview?organization={id}',
]);

/** Calls whose allowed answer is a list filtered for the caller: "allowed" means organization A showed. */
const LISTS = new Set(['GET /api/organizations']);

interface Case {
  op: string;
  call: string;
  position: Position;
  allowed: boolean;
}

const cases: Case[] = Object.entries(PERMISSIONS).flatMap(([op, row]) =>
  row.calls.flatMap((c) =>
    POSITIONS.map((position) => ({
      op,
      call: c,
      position,
      allowed: (row.allow as readonly Position[]).includes(position),
    })),
  ),
);

/**
 * Every call and read of `docs/permissions.md`, as every position, against a real server: allowed cells
 * answer 200; refused cells answer 401 (anonymous), 404 (outside the organization: no leak by id guessing)
 * or 403, and write nothing (the audit log does not grow).
 */
describe('authorization matrix', () => {
  let server: TestServer;
  let world: World;
  beforeAll(async () => {
    server = await startTestServer();
    world = await buildWorld(server);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('covers every call of the table in every position', () => {
    const calls = Object.values(PERMISSIONS).reduce((n, row) => n + row.calls.length, 0);
    expect(Object.keys(RUNNERS).sort()).toEqual(
      cases
        .map((c) => c.call)
        .filter((c, i, a) => a.indexOf(c) === i)
        .sort(),
    );
    expect(cases.length).toBe(calls * POSITIONS.length);
    // eslint-disable-next-line no-console -- the case count is part of the report
    console.info(
      `authorization matrix: ${cases.length} cases (${calls} calls x ${POSITIONS.length} positions)`,
    );
  });

  it('answers an outsider the same for another organization as for an id that does not exist', async () => {
    const { otherOrganization: outsider } = world.cast;
    const real = await get(server, outsider, `/api/caseplans?organization=${world.orgA}`);
    const unknown = await get(server, outsider, '/api/caseplans?organization=no-such-org');
    expect(real).toEqual(unknown);
    expect(await get(server, outsider, `/api/caseplans/overview?organization=${world.orgA}`)).toEqual(
      await get(server, outsider, '/api/caseplans/overview?organization=no-such-org'),
    );
    for (const path of ['members', 'audit', 'settings/caseplan-fields']) {
      const a = await get(server, outsider, `/api/organizations/${world.orgA}/${path}`);
      const b = await get(server, outsider, `/api/organizations/no-such-org/${path}`);
      expect(a).toEqual(b);
    }
    const plan = await get(server, outsider, `/api/caseplans/${world.planB.id}`);
    expect(plan.status).toBe(200);
    const admin = world.cast.orgAdmin;
    const foreign = await get(server, admin, `/api/caseplans/${world.planB.id}`);
    expect(foreign).toEqual(await get(server, admin, '/api/caseplans/no-such-plan'));
  });

  it.each(cases.map((c) => [`${c.call} as ${c.position} -> ${c.allowed ? 'allow' : 'deny'}`, c] as const))(
    '%s',
    async (_label, c) => {
      const person = c.position === 'anonymous' ? undefined : world.cast[c.position];
      const run = RUNNERS[c.call];
      if (!run) throw new Error(`no runner for ${c.call}`);
      const auditBefore = await countRows(server.db, 'audit_log');
      const outcome = await run(server, world, person);
      if (LISTS.has(c.call) && c.position !== 'anonymous') {
        expect(outcome.status).toBe(200);
        expect(outcome.sawIt).toBe(c.allowed);
        return;
      }
      if (c.allowed) {
        expect(outcome.status).toBe(200);
        return;
      }
      if (c.position === 'anonymous') expect(outcome.status).toBe(401);
      else if (
        c.position === 'otherOrganization' &&
        c.call !== 'organizations-create' &&
        !SAME_ANSWER_FOR_UNKNOWN.has(c.call)
      ) {
        expect(outcome.status).toBe(404);
      } else expect([403, 404]).toContain(outcome.status);
      expect(await countRows(server.db, 'audit_log')).toBe(auditBefore);
    },
  );
});
