import type { Queryable } from '../../platform/db.js';

/** An auth account joined with its product user record (`profiles`), as stored. */
export interface AccountRow {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  photo: string | null;
  timezone: string | null;
  language: string | null;
  devices: Record<string, unknown>;
  last_login: Date | null;
  sadmin: boolean;
  created: Date;
  updated: Date;
}

/**
 * Creates the user record from the auth account when it is missing ("create with merge": an existing
 * record keeps its fields) and stamps `last_login`. Runs on every new session, i.e. on sign-up and sign-in.
 */
export async function recordSignIn(q: Queryable, uid: string): Promise<void> {
  await q.query(
    `INSERT INTO profiles (id, name, photo, last_login)
     SELECT id, name, image, now() FROM "user" WHERE id = $1
     ON CONFLICT (id) DO UPDATE SET last_login = EXCLUDED.last_login`,
    [uid],
  );
}

/** Creates the user record from the auth account when it is missing; never changes an existing one. */
export async function ensureProfile(q: Queryable, uid: string): Promise<void> {
  await q.query(
    `INSERT INTO profiles (id, name, photo)
     SELECT id, name, image FROM "user" WHERE id = $1
     ON CONFLICT (id) DO NOTHING`,
    [uid],
  );
}

/** Whether the user record (`profiles` row) of `uid` exists. */
export async function hasUserRecord(q: Queryable, uid: string): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM profiles WHERE id = $1', [uid]);
  return rows.length > 0;
}

/** The account and user record of `uid`, or undefined when the account does not exist. */
export async function loadAccount(q: Queryable, uid: string): Promise<AccountRow | undefined> {
  const { rows } = await q.query<AccountRow>(
    `SELECT u.id, u.email, u."emailVerified" AS "emailVerified",
            COALESCE(p.name, u.name) AS name, COALESCE(p.photo, u.image) AS photo, p.timezone,
            p.language, COALESCE(p.devices, '{}'::jsonb) AS devices, p.last_login, COALESCE(p.sadmin, false) AS sadmin,
            COALESCE(p.created, u."createdAt") AS created, COALESCE(p.updated, u."updatedAt") AS updated
       FROM "user" u LEFT JOIN profiles p ON p.id = u.id
      WHERE u.id = $1`,
    [uid],
  );
  return rows[0];
}

/** Finds an account id by e-mail address (case-insensitive). */
export async function findUserIdByEmail(q: Queryable, email: string): Promise<string | undefined> {
  const { rows } = await q.query<{ id: string }>('SELECT id FROM "user" WHERE lower(email) = lower($1)', [
    email,
  ]);
  return rows[0]?.id;
}

/** Sets or clears the super-admin claim; answers false when no account has that address. */
export async function setSuperAdmin(q: Queryable, email: string, sadmin: boolean): Promise<boolean> {
  const uid = await findUserIdByEmail(q, email);
  if (!uid) return false;
  await ensureProfile(q, uid);
  await q.query('UPDATE profiles SET sadmin = $2, updated = now() WHERE id = $1', [uid, sadmin]);
  return true;
}

/** Whether the account holds the super-admin claim. */
export async function superAdminOf(q: Queryable, uid: string): Promise<boolean> {
  const { rows } = await q.query<{ sadmin: boolean }>('SELECT sadmin FROM profiles WHERE id = $1', [uid]);
  return rows[0]?.sadmin === true;
}
