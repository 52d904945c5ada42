import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arbitraryFor, type Plausible } from './bad-input-arbitraries.js';
import { buildWorld, freshPlan, type PlanFixture, type World } from './authz-fixtures.js';
import { call } from './domain-support.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Property (issue 13 §6, product side): whatever `data` a signed-in organization admin sends to any callable of
 * `/api/functions/{name}` — every callable of the registry, so a new one is covered without touching this file —
 * the answer is never a 5xx. Inputs follow each callable's schema field by field with one field made hostile (NUL,
 * unpaired surrogates, Object.prototype names, far dates, huge numbers, deep nesting, oversized data).
 * BAD_INPUT_RUNS calls per callable (default 12), on PostgreSQL.
 */

const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 12);

describe('no 5xx for generated bad callable data', () => {
  let server: TestServer;
  let world: World;
  let plan: PlanFixture;

  beforeAll(async () => {
    server = await startTestServer({ env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'fatal' } });
    world = await buildWorld(server);
    plan = await freshPlan(server.db, world.orgA, world.cast);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('every callable', async () => {
    const registry = server.app.product.callables;
    const plausible: Plausible = {
      strings: [
        world.orgA,
        plan.id,
        plan.team,
        plan.roleOn,
        plan.roleSpare,
        plan.event,
        'Name',
        '2030-01-01T00:00:00Z',
      ],
    };
    expect(registry.names().length).toBeGreaterThan(10);
    for (const name of registry.names()) {
      const schema = registry.get(name)?.data;
      if (!schema) continue;
      await fc.assert(
        fc.asyncProperty(arbitraryFor(schema, plausible), async (data) => {
          const res = await call(server, world.cast.orgAdmin, name, data);
          expect(
            res.status,
            `${name} ${JSON.stringify(data)?.slice(0, 300)} -> ${JSON.stringify(res.body).slice(0, 300)}`,
          ).toBeLessThan(500);
        }),
        { numRuns: RUNS },
      );
    }
  }, 300_000);
});
