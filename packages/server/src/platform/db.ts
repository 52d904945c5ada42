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

/** The last statement's result of a simple query that held several statements (pg answers an array). */
function lastResult(r: unknown): { rows: unknown[]; rowCount: number | null } {
  const one = Array.isArray(r) ? r.at(-1) : r;
  return (one ?? { rows: [], rowCount: 0 }) as { rows: unknown[]; rowCount: number | null };
}

async function inTransaction<T>(client: PoolClientLike, fn: (q: Tx) => Promise<T>): Promise<T> {
  // One connection runs one statement at a time: statements issued together (Promise.all) take turns here
  // rather than relying on the driver's deprecated implicit queue.
  let turn: Promise<unknown> = Promise.resolve();
  // BEGIN goes with the first statement when that one has no parameters (one simple query, one round trip).
  let begun = false;
  let tail: string[] = [];
  const q: Tx = {
    query: <R>(text: string, params?: readonly unknown[]) => {
      const run = turn.then(async () => {
        let r;
        if (begun) r = await client.query(text, params);
        else if (params?.length) {
          begun = true;
          await client.query('BEGIN');
          r = await client.query(text, params);
        } else {
          begun = true;
          r = lastResult(await client.query(`BEGIN;\n${text}`));
        }
        return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
      });
      turn = run.catch(() => undefined);
      return run;
    },
    beforeCommit(text: string) {
      tail.push(text);
    },
  };
  try {
    const result = await fn(q);
    await turn;
    const statements = [...(begun ? [] : ['BEGIN']), ...tail, 'COMMIT'];
    tail = [];
    begun = true;
    await client.query(statements.join(';\n'));
    return result;
  } catch (err) {
    if (begun) await client.query('ROLLBACK').catch(() => undefined);
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
        const r = await client.query(text, params);
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
          // Without parameters use the simple protocol, which (as on a server) allows several statements.
          const r = params?.length
            ? await lite.query(text, params as unknown[])
            : ((await lite.exec(text)).at(-1) ?? { rows: [], fields: [], affectedRows: 0 });
          // Like pg: a statement that returns rows counts them, others count what they changed.
          return { rows: r.rows, rowCount: r.fields.length > 0 ? r.rows.length : (r.affectedRows ?? 0) };
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
