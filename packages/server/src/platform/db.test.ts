import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from './db.js';
import { migrate } from './migrate.js';

describe('embedded database (PGlite)', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPglite(undefined);
    await db.query('CREATE TABLE t (id int PRIMARY KEY, n bigint, at timestamptz DEFAULT now(), doc jsonb)');
  });
  afterAll(() => db.close());

  it('parses bigint as number, timestamptz as Date and jsonb as objects', async () => {
    await db.query('INSERT INTO t (id, n, doc) VALUES ($1, $2, $3)', [1, 42, JSON.stringify({ a: [1] })]);
    const { rows } = await db.query<{ n: number; at: Date; doc: unknown }>(
      'SELECT n, at, doc FROM t WHERE id = 1',
    );
    expect(rows[0]?.n).toBe(42);
    expect(rows[0]?.at).toBeInstanceOf(Date);
    expect(rows[0]?.doc).toEqual({ a: [1] });
  });

  it('rolls a failed transaction back whole', async () => {
    await expect(
      db.tx(async (q) => {
        await q.query('INSERT INTO t (id) VALUES (2)');
        await q.query('INSERT INTO t (id) VALUES (2)');
      }),
    ).rejects.toThrow();
    expect((await db.query('SELECT 1 FROM t WHERE id = 2')).rowCount).toBe(0);
  });

  it('keeps concurrent transactions apart on its single connection', async () => {
    const writers = Array.from({ length: 20 }, (_, i) =>
      db
        .tx(async (q) => {
          await q.query('INSERT INTO t (id) VALUES ($1)', [100 + i]);
          if (i % 2) throw new Error('roll back the odd ones');
        })
        .catch(() => undefined),
    );
    const readers = Array.from({ length: 10 }, () =>
      db.query('SELECT count(*)::int AS c FROM t WHERE id >= 100'),
    );
    await Promise.all([...writers, ...readers]);
    const { rows } = await db.query<{ c: number }>('SELECT count(*)::int AS c FROM t WHERE id >= 100');
    expect(rows[0]?.c).toBe(10);
  });

  it('runs several statements in one parameterless query', async () => {
    await db.query('CREATE TABLE multi (x int); INSERT INTO multi VALUES (1); INSERT INTO multi VALUES (2);');
    expect((await db.query('SELECT * FROM multi')).rowCount).toBe(2);
  });
});

describe('migrations', () => {
  it('apply once, survive a restart, and are not applied twice', { timeout: 60_000 }, async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'caseroom-mig-'));
    const migrations = path.join(dir, 'migrations');
    await fs.mkdir(migrations);
    await fs.writeFile(path.join(migrations, '0001_a.sql'), 'CREATE TABLE a (id int);');
    await fs.writeFile(
      path.join(migrations, '0002_b.sql'),
      'CREATE TABLE b (id int); INSERT INTO b VALUES (7);',
    );
    await fs.writeFile(path.join(migrations, 'README.txt'), 'not a migration');

    let db = await openPglite(path.join(dir, 'db'));
    expect(await migrate(db, migrations)).toEqual(['0001_a.sql', '0002_b.sql']);
    await db.close();

    db = await openPglite(path.join(dir, 'db'));
    expect(await migrate(db, migrations)).toEqual([]);
    expect((await db.query('SELECT id FROM b')).rows).toEqual([{ id: 7 }]);
    await db.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('leave nothing behind when one fails', { timeout: 60_000 }, async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'caseroom-mig-'));
    await fs.writeFile(path.join(dir, '0001_bad.sql'), 'CREATE TABLE c (id int); SELECT no_such_function();');
    const db = await openPglite(undefined);
    await expect(migrate(db, dir)).rejects.toThrow();
    const { rows } = await db.query("SELECT to_regclass('c') AS t");
    expect(rows[0]).toEqual({ t: null });
    await db.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
});

describe('statements issued together inside a transaction', () => {
  it('take turns on the connection and all see the transaction', async () => {
    const db = await openPglite(undefined);
    await db.query('CREATE TABLE turns (id int)');
    const counts = await db.tx(async (q) => {
      await q.query('INSERT INTO turns VALUES (1), (2)');
      const all = await Promise.all(
        Array.from({ length: 5 }, () => q.query<{ c: number }>('SELECT count(*)::int AS c FROM turns')),
      );
      return all.map((r) => r.rows[0]?.c);
    });
    expect(counts).toEqual([2, 2, 2, 2, 2]);
    await db.close();
  }, 60_000); // starting an embedded PGlite takes seconds on a loaded machine
});
