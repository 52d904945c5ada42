import fs from 'node:fs/promises';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';

/** Result of one statement. */
export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** Anything that runs SQL: the database itself or a transaction. */
export interface Queryable {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
}

/**
 * A transaction. Statements without parameters (values inlined with {@link literal}) save round trips: the first
 * one goes with the `BEGIN`, and {@link Tx.beforeCommit} with the `COMMIT`.
 */
export interface Tx extends Queryable {
  /** Runs `text` (no parameters) right before the `COMMIT`, in the same round trip; a failure rolls back. */
  beforeCommit(text: string): void;
  /**
   * Ends the transaction: runs what {@link beforeCommit} queued, then `text` (no parameters), then `COMMIT`, all in
   * one round trip, and answers `text`'s result. A failure rolls back. No statement may follow.
   */
  commit<R = Record<string, unknown>>(text: string): Promise<QueryResult<R>>;
}

/** A value as an SQL literal (strings escaped as PostgreSQL reads them; arrays as `text[]`). */
export function literal(value: string | number | boolean | null | readonly string[]): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  return `ARRAY[${value.map((v) => pg.escapeLiteral(v)).join(', ')}]::text[]`;
}

/** A client checked out of a {@link PoolLike}; `release` returns it. The shape `pg.PoolClient` has. */
export interface PoolClientLike {
  query(
    text: string,
    params?: readonly unknown[],
  ): Promise<{ rows: unknown[]; rowCount: number | null; command?: string }>;
  release(): void;
}

/** The subset of `pg.Pool` that Kysely's PostgresDialect needs, implemented for both back ends. */
export interface PoolLike {
  connect(): Promise<PoolClientLike>;
  end(): Promise<void>;
}

/** The system of record: PostgreSQL, embedded (PGlite) or a server. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  readonly pool: PoolLike;
  /** Runs `fn` in one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (q: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** Same value types on both back ends: bigint and numeric as JS numbers, timestamps as Date, json parsed. */
pg.types.setTypeParser(INT8_OID, (v) => Number(v));
pg.types.setTypeParser(NUMERIC_OID, (v) => Number(v));

type RawResult = { rows: unknown[]; rowCount: number | null };

/** The results of a simple query, one per statement (pg answers an array only when it held several). */
function results(r: unknown): RawResult[] {
  return (Array.isArray(r) ? r : [r]) as RawResult[];
}

/** The last statement's result of a simple query that held several statements. */
function lastResult(r: unknown): RawResult {
  return results(r).at(-1) ?? { rows: [], rowCount: 0 };
}

async function inTransaction<T>(client: PoolClientLike, fn: (q: Tx) => Promise<T>): Promise<T> {
  // One connection runs one statement at a time: statements issued together (Promise.all) take turns here
  // rather than relying on the driver's deprecated implicit queue.
  let turn: Promise<unknown> = Promise.resolve();
  // BEGIN goes with the first statement when that one has no parameters (one simple query, one round trip).
  let begun = false;
  let committed = false;
  let tail: string[] = [];
  const next = <V>(step: () => Promise<V>): Promise<V> => {
    const run = turn.then(() => {
      if (committed) throw new Error('the transaction was committed already');
      return step();
    });
    turn = run.catch(() => undefined);
    return run;
  };
  /** Runs `statements` and COMMIT in one round trip; the result of each statement. */
  const commitWith = async (statements: string[]): Promise<RawResult[]> => {
    const all = [...(begun ? [] : ['BEGIN']), ...tail, ...statements, 'COMMIT'];
    const skip = all.length - statements.length - 1;
    tail = [];
    begun = true;
    const r = results(await client.query(all.join(';\n')));
    committed = true;
    return r.slice(skip, skip + statements.length);
  };
  const q: Tx = {
    query: <R>(text: string, params?: readonly unknown[]) =>
      next(async () => {
        let r;
        if (begun) r = lastResult(await client.query(text, params));
        else if (params?.length) {
          begun = true;
          await client.query('BEGIN');
          r = lastResult(await client.query(text, params));
        } else {
          begun = true;
          r = lastResult(await client.query(`BEGIN;\n${text}`));
        }
        return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
      }),
    beforeCommit(text: string) {
      if (committed) throw new Error('the transaction was committed already');
      tail.push(text);
    },
    commit: <R>(text: string) =>
      next(async () => {
        const [r = { rows: [], rowCount: 0 }] = await commitWith([text]);
        return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
      }),
  };
  try {
    const result = await fn(q);
    await turn;
    if (!committed) await commitWith([]);
    else if (tail.length > 0) throw new Error('statements were queued after the commit');
    return result;
  } catch (err) {
    if (begun && !committed) await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

function fromPool(pool: PoolLike, kind: Db['kind'], close: () => Promise<void>): Db {
  return {
    kind,
    pool,
    async query<R>(text: string, params?: readonly unknown[]) {
      const client = await pool.connect();
      try {
        const r = lastResult(await client.query(text, params));
        return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
      } finally {
        client.release();
      }
    },
    async tx<T>(fn: (q: Tx) => Promise<T>) {
      const client = await pool.connect();
      try {
        return await inTransaction(client, fn);
      } finally {
        client.release();
      }
    },
    close,
  };
}

/** Connects to a PostgreSQL server. */
export function openPostgres(url: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined); // an idle client's error surfaces on its next use
  return fromPool(pool as unknown as PoolLike, 'postgres', () => pool.end());
}

/**
 * PGlite is one connection. Callers take turns: `connect` waits for the previous holder's `release`,
 * so a transaction never interleaves with another caller's statements.
 */
function pgliteSerialPool(lite: PGlite): PoolLike {
  let tail: Promise<void> = Promise.resolve();
  return {
    connect() {
      let release!: () => void;
      const turn = new Promise<void>((resolve) => (release = resolve));
      const ready = tail.then(() => undefined);
      tail = tail.then(() => turn);
      return ready.then(() => ({
        async query(text: string, params?: readonly unknown[]) {
          // Like pg: a statement that returns rows counts them, others count what they changed.
          const one = (r: { rows: unknown[]; fields: unknown[]; affectedRows?: number }) => ({
            rows: r.rows,
            rowCount: r.fields.length > 0 ? r.rows.length : (r.affectedRows ?? 0),
          });
          if (params?.length) return one(await lite.query(text, params as unknown[]));
          // Without parameters use the simple protocol, which (as on a server) allows several statements; like pg,
          // one result per statement when there are several.
          const all = (await lite.exec(text)).map(one);
          return (all.length === 1 ? all[0] : all) as ReturnType<typeof one>;
        },
        release,
      }));
    },
    end: () => lite.close(),
  };
}

/** Opens (and creates) the embedded database under `dir`; `dir` undefined means in memory. */
export async function openPglite(dir: string | undefined): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  if (dir) await fs.mkdir(dir, { recursive: true });
  const lite = await PGlite.create({
    ...(dir ? { dataDir: dir } : {}),
    parsers: { [INT8_OID]: (v: string) => Number(v), [NUMERIC_OID]: (v: string) => Number(v) },
  });
  const pool = pgliteSerialPool(lite);
  return fromPool(pool, 'pglite', () => lite.close());
}
