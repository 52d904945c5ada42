import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { literal, openPglite, openPostgres, type Db } from '../src/platform/db.js';
import { createTestDatabase } from './helpers/server.js';

describe('PostgreSQL back end', () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    db = openPostgres(created.url);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it('runs statements issued together in a transaction one after another, without driver warnings', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      await db.query('CREATE TABLE turns (id int)');
      const counts = await db.tx(async (q) => {
        await q.query('INSERT INTO turns VALUES (1), (2)');
        const all = await Promise.all(
          Array.from({ length: 5 }, () => q.query<{ c: number }>('SELECT count(*)::int AS c FROM turns')),
        );
        return all.map((r) => r.rows[0]?.c);
      });
      expect(counts).toEqual([2, 2, 2, 2, 2]);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.includes('client.query'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('reads inlined literals back as they were (quotes, backslashes, arrays, null)', async () => {
    const nasty = `it's a \\back\\slash'; DROP TABLE turns; --`;
    const { rows } = await db.query<{ s: string; a: string[]; n: null; e: string[] }>(
      `SELECT ${literal(nasty)} AS s, ${literal(['a', "b'c", 'd\\e'])} AS a, ${literal(null)} AS n,
              ${literal([])} AS e`,
    );
    expect(rows[0]).toEqual({ s: nasty, a: ['a', "b'c", 'd\\e'], n: null, e: [] });
  });

  for (const backEnd of ['postgres', 'pglite'] as const) {
    it(`${backEnd}: a statement without parameters goes with BEGIN, one before the COMMIT goes with it`, async () => {
      const d = backEnd === 'postgres' ? db : await openPglite(undefined);
      try {
        await d.query('CREATE TABLE IF NOT EXISTS folded (id int PRIMARY KEY)');
        await d.query('DELETE FROM folded');
        const seen = await d.tx(async (q) => {
          const first = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM folded');
          await q.query('INSERT INTO folded VALUES ($1)', [1]);
          q.beforeCommit('INSERT INTO folded VALUES (2)');
          return first.rows[0]?.n;
        });
        expect(seen).toBe(0);
        expect((await d.query('SELECT id FROM folded ORDER BY id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
        // The statement before the COMMIT fails: nothing of the transaction stays.
        await expect(
          d.tx(async (q) => {
            await q.query('INSERT INTO folded VALUES (3)');
            q.beforeCommit('INSERT INTO folded VALUES (1)');
          }),
        ).rejects.toThrow(/duplicate key/);
        // The first statement fails: rolled back, and the connection is usable again.
        await expect(
          d.tx(async (q) => {
            await q.query('INSERT INTO folded VALUES (2)');
          }),
        ).rejects.toThrow(/duplicate key/);
        // commit(): what beforeCommit queued, the statement and the COMMIT in one round trip, with its result.
        const ended = await d.tx(async (q) => {
          await q.query('INSERT INTO folded VALUES ($1)', [5]);
          q.beforeCommit('INSERT INTO folded VALUES (6)');
          const r = await q.commit<{ n: number }>('SELECT count(*)::int AS n FROM folded');
          await expect(q.query('SELECT 1')).rejects.toThrow(/committed already/);
          return r.rows[0]?.n;
        });
        expect(ended).toBe(4);
        await expect(
          d.tx(async (q) => {
            await q.commit('INSERT INTO folded VALUES (5)');
          }),
        ).rejects.toThrow(/duplicate key/);
        await d.query('DELETE FROM folded WHERE id IN (5, 6)');
        // A write that only records before the COMMIT.
        await d.tx(async (q) => q.beforeCommit('INSERT INTO folded VALUES (4)'));
        expect((await d.query('SELECT id FROM folded ORDER BY id')).rows).toEqual([
          { id: 1 },
          { id: 2 },
          { id: 4 },
        ]);
      } finally {
        if (d !== db) await d.close();
      }
    });
  }

  it('parses bigint as a number like the embedded database', async () => {
    const { rows } = await db.query<{ n: number }>('SELECT 9007199254740991::bigint AS n');
    expect(rows[0]?.n).toBe(Number.MAX_SAFE_INTEGER);
  });
});
