import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Db } from '../src/platform/db.js';
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

  it('parses bigint as a number like the embedded database', async () => {
    const { rows } = await db.query<{ n: number }>('SELECT 9007199254740991::bigint AS n');
    expect(rows[0]?.n).toBe(Number.MAX_SAFE_INTEGER);
  });
});
