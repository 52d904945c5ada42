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

/**
 * A string as an SQL literal, as `pg.escapeLiteral` writes it (quotes doubled; with a backslash, an `E''` literal
 * with backslashes doubled) in a few whole-string passes instead of one concatenation per character: event
 * payloads of a kilobyte and more go through here on every send.
 */
function escapeLiteral(value: string): string {
  const quoted = value.includes("'") ? value.replaceAll("'", "''") : value;
  return value.includes('\\') ? ` E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/** A value as an SQL literal (strings escaped as PostgreSQL reads them; arrays as `text[]`). */
export function literal(value: string | number | boolean | null | readonly string[]): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return escapeLiteral(value);
  return `ARRAY[${value.map(escapeLiteral).join(', ')}]::text[]`;
}

/** A value {@link literal} writes, or an SQL expression written as it is (a value no literal expresses). */
export type LiteralValue = Parameters<typeof literal>[0] | { readonly sql: string };

/** A statement named for PostgreSQL's `PREPARE` (see {@link prepared}). */
interface PreparedStatement {
  name: string;
  types: readonly string[];
  text: () => string;
}

/** Every prepared statement, by name. */
const preparedStatements = new Map<string, PreparedStatement>();

/** Prefix of the names of {@link prepared} statements; how a simple query is seen to execute one. */
const PREPARED_PREFIX = 'caseroom_';

/**
 * A statement PostgreSQL parses and plans once per connection (SQL `PREPARE`) instead of on every run. The answer
 * writes `EXECUTE name(values)` with the values as literals: a simple-protocol statement that still shares one
 * round trip with the `BEGIN` or the `COMMIT` (see {@link Tx}), which parameters could not. Before a simple query
 * that executes statements its connection has not prepared yet, one round trip prepares them.
 * `text` (parameters `$1`..., of `types`) is built on the first `PREPARE`. Plans are the planner's choice
 * (`plan_cache_mode`): a transaction that wants the cached plan says `SET LOCAL plan_cache_mode =
 * force_generic_plan`.
 */
export function prepared(
  name: string,
  types: readonly string[],
  text: () => string,
): (values: readonly LiteralValue[]) => string {
  const full = PREPARED_PREFIX + name;
  if (preparedStatements.has(full)) throw new Error(`prepared statement ${full} is defined twice`);
  preparedStatements.set(full, { name: full, types, text });
  return (values) => {
    if (values.length !== types.length) throw new Error(`${full} takes ${types.length} values`);
    const args = values.map((v) => (v !== null && typeof v === 'object' && 'sql' in v ? v.sql : literal(v)));
    return `EXECUTE ${full}(${args.join(', ')})`;
  };
}

/** The statements prepared on each connection (PGlite: one session shared by its clients). */
const preparedOn = new WeakMap<object, Set<string>>();

function sessionOf(client: PoolClientLike): object {
  return client.session ?? client;
}

/** The prepared statements a simple query executes (found by name; a name inside a literal does no harm). */
function executedIn(text: string): PreparedStatement[] {
  const found: PreparedStatement[] = [];
  const marker = `EXECUTE ${PREPARED_PREFIX}`;
  for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + marker.length)) {
    const start = at + 'EXECUTE '.length;
    const statement = preparedStatements.get(text.slice(start, text.indexOf('(', start)));
    if (statement && !found.includes(statement)) found.push(statement);
  }
  return found;
}

/** Prepares on `client`'s connection the statements that `text` (a simple query) executes and it lacks. */
async function prepareFor(client: PoolClientLike, text: string): Promise<void> {
  if (!text.includes(`EXECUTE ${PREPARED_PREFIX}`)) return;
  const session = sessionOf(client);
  const done = preparedOn.get(session) ?? new Set<string>();
  const missing = executedIn(text).filter((p) => !done.has(p.name));
  if (missing.length === 0) return;
  await client.query(
    missing.map((p) => `PREPARE ${p.name}(${p.types.join(', ')}) AS ${p.text()}`).join(';\n'),
  );
  preparedOn.set(session, done);
  for (const p of missing) done.add(p.name);
}

/**
 * After a failed statement: when the connection's prepared statements are gone (`DISCARD`) or stale (a migration
 * changed a table a statement reads with `*`), deallocate and forget them, so that the next use prepares them anew.
 */
async function checkPrepared(client: PoolClientLike, err: unknown): Promise<void> {
  const code = (err as { code?: unknown }).code;
  if (code !== '26000' && code !== '0A000') return;
  const session = sessionOf(client);
  const done = preparedOn.get(session);
  if (!done?.size) return;
  preparedOn.delete(session);
  for (const name of done) await client.query(`DEALLOCATE ${name}`).catch(() => undefined);
}

/** A client checked out of a {@link PoolLike}; `release` returns it. The shape `pg.PoolClient` has. */
export interface PoolClientLike {
  query(
    text: string,
    params?: readonly unknown[],
  ): Promise<{ rows: unknown[]; rowCount: number | null; command?: string }>;
  release(): void;
  /** The database session, when several client objects share one (PGlite); else the client is the session. */
  readonly session?: object;
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

/** Runs a query on `client`, first preparing what a simple query executes. */
async function run(client: PoolClientLike, text: string, params?: readonly unknown[]): Promise<unknown> {
  if (!params?.length) await prepareFor(client, text);
  return client.query(text, params);
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
    const r = results(await run(client, all.join(';\n')));
    committed = true;
    return r.slice(skip, skip + statements.length);
  };
  const q: Tx = {
    query: <R>(text: string, params?: readonly unknown[]) =>
      next(async () => {
        let r;
        if (begun) r = lastResult(await run(client, text, params));
        else if (params?.length) {
          begun = true;
          await client.query('BEGIN');
          r = lastResult(await client.query(text, params));
        } else {
          begun = true;
          r = lastResult(await run(client, `BEGIN;\n${text}`));
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
    await checkPrepared(client, err);
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
        const r = lastResult(await run(client, text, params));
        return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
      } catch (err) {
        await checkPrepared(client, err);
        throw err;
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
        session: lite,
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
