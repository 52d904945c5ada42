import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, prepared, type Db } from '../src/platform/db.js';
import { createTestDatabase } from './helpers/server.js';

/**
 * Prepared statements (platform/db `prepared`): run with inlined values in simple queries, so they share the
 * BEGIN's and the COMMIT's round trip; each connection prepares them the first time it needs them, and again
 * after they are lost or stale.
 */

const echo = prepared(
  'test_echo',
  ['text', 'text[]', 'int', 'boolean', 'jsonb'],
  () => 'SELECT $1 AS s, $2 AS a, $3 AS n, $4 AS b, $5 AS j',
);
const insertRow = prepared('test_insert', ['int'], () => 'INSERT INTO prepared_rows VALUES ($1) RETURNING *');
const readRows = prepared(
  'test_read',
  ['int'],
  () => 'SELECT * FROM prepared_rows WHERE id >= $1 ORDER BY id',
);

describe('prepared statements', () => {
  let pgDb: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    pgDb = openPostgres(created.url, 2);
  });
  afterAll(async () => {
    await pgDb.close();
    await drop();
  });

  for (const backEnd of ['postgres', 'pglite'] as const) {
    it(`${backEnd}: runs with BEGIN and COMMIT, values as they were, rolled back on failure`, async () => {
      const db = backEnd === 'postgres' ? pgDb : await openPglite(undefined);
      try {
        await db.query('CREATE TABLE prepared_rows (id int PRIMARY KEY)');
        const nasty = `it's a \\back\\slash'; DROP TABLE prepared_rows; --`;
        const { rows } = await db.query(echo([nasty, ['a', "b'c"], 7, true, '{"k": "v\'"}']));
        expect(rows[0]).toEqual({ s: nasty, a: ['a', "b'c"], n: 7, b: true, j: { k: "v'" } });
        const { rows: nulls } = await db.query(echo([null, [], null, null, { sql: `'[1]'::jsonb` }]));
        expect(nulls[0]).toEqual({ s: null, a: [], n: null, b: null, j: [1] });

        const seen = await db.tx(async (q) => {
          await q.query(`${insertRow([1])}; ${insertRow([2])}`);
          return (await q.commit<{ id: number }>(readRows([0]))).rows;
        });
        expect(seen.map((r) => r.id)).toEqual([1, 2]);
        // A failing statement rolls the whole transaction back; the statements stay usable.
        await expect(db.tx((q) => q.commit(`${insertRow([3])}; ${insertRow([1])}`))).rejects.toThrow(
          /duplicate key/,
        );
        expect((await db.query<{ id: number }>(readRows([0]))).rows.map((r) => r.id)).toEqual([1, 2]);

        // Lost (DISCARD ALL) or stale (the table changed under a `SELECT *`): a query fails once per connection,
        // the next one prepares them again.
        const failuresUntil = async (expected: unknown, error: RegExp) => {
          let failures = 0;
          for (let i = 0; i < 4; i++) {
            try {
              expect((await db.query(readRows([2]))).rows).toEqual(expected);
            } catch (err) {
              expect(String(err)).toMatch(error);
              failures++;
            }
          }
          return failures;
        };
        await Promise.all([0, 1].map(() => db.query('DISCARD ALL')));
        expect(await failuresUntil([{ id: 2 }], /does not exist/)).toBeLessThanOrEqual(2);
        expect((await db.query(readRows([2]))).rows).toEqual([{ id: 2 }]);
        await db.query('ALTER TABLE prepared_rows ADD COLUMN note text');
        expect(
          await failuresUntil([{ id: 2, note: null }], /cached plan must not change result type/),
        ).toBeLessThanOrEqual(2);
        expect((await db.query(readRows([2]))).rows).toEqual([{ id: 2, note: null }]);
      } finally {
        if (backEnd === 'pglite') await db.close();
      }
    });
  }

  it('postgres: each connection prepares the statements it runs, once', async () => {
    const created = await createTestDatabase();
    const db = openPostgres(created.url, 2);
    try {
      const names = await Promise.all(
        [0, 1].map(() =>
          db.tx(async (q) => {
            await q.query(echo(['x', [], 1, false, '{}']));
            await q.query(echo(['y', [], 2, true, '{}']));
            const { rows } = await q.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
            return rows.map((r) => r.name);
          }),
        ),
      );
      expect(names).toEqual([['caseroom_test_echo'], ['caseroom_test_echo']]);
    } finally {
      await db.close();
      await created.drop();
    }
  });
});
