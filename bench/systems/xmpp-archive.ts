import fs from 'node:fs';
import pg from 'pg';
import { createDatabase } from './caseroom.js';

/**
 * The peers' message archives on PostgreSQL (the machine's server, 127.0.0.1:5432, trust auth, user root), one
 * fresh database per server start as Caseroom gets: ejabberd's mod_mam with `db_type: sql` on its PostgreSQL
 * schema (the "old", single-host schema of /usr/share/ejabberd/sql/pg.sql), Prosody's mod_muc_mam through
 * mod_storage_sql (which creates its own `prosodyarchive` table on start). Accounts, rosters and the rest stay in
 * each server's default store (Mnesia, Prosody's files).
 */

export const EJABBERD_PG_SCHEMA = '/usr/share/ejabberd/sql/pg.sql';

export interface ArchiveDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createArchiveDatabase(schemaFile?: string): Promise<ArchiveDatabase> {
  const db = await createDatabase();
  const name = new URL(db.url).pathname.slice(1);
  if (schemaFile) {
    const c = new pg.Client({ connectionString: db.url });
    try {
      await c.connect();
      await c.query(fs.readFileSync(schemaFile, 'utf8'));
    } catch (err) {
      await db.drop().catch(() => undefined);
      throw err;
    } finally {
      await c.end().catch(() => undefined);
    }
  }
  return { url: db.url, name, drop: () => db.drop() };
}

/** The top-level ejabberd.yml options of an SQL connection to `db` (the pool as ejabberd's default, 10). */
export function ejabberdSqlOptions(db: ArchiveDatabase): string {
  return `sql_type: pgsql
sql_server: "127.0.0.1"
sql_port: 5432
sql_database: "${db.name}"
sql_username: "root"
sql_password: ""
sql_pool_size: 10
new_sql_schema: false
`;
}

/** prosody.cfg.lua lines: the MUC archive (`muc_log` store) in PostgreSQL, everything else in the file store. */
export function prosodySqlOptions(db: ArchiveDatabase): string {
  return `storage = { muc_log = "sql"; archive = "sql" }
default_storage = "internal"
sql = { driver = "PostgreSQL"; database = "${db.name}"; username = "root"; password = ""; host = "127.0.0.1"; port = 5432 }
`;
}
