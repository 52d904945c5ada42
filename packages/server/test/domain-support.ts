import type { Queryable } from '../src/platform/db.js';
import { setSuperAdmin } from '../src/product/users/profiles.js';
import type { TestServer } from './helpers/server.js';

/** A signed-up person with a bearer token. */
export interface Person {
  uid: string;
  token: string;
  email: string;
}

let counter = 0;

/** Signs a person up through better-auth (no HTTP, so the per-IP sign-up limit does not apply). */
export async function signUp(
  server: TestServer,
  label: string,
  opts: { sadmin?: boolean } = {},
): Promise<Person> {
  counter += 1;
  const email = `${label}-${counter}-${Date.now()}@example.test`;
  const res = await server.app.product.auth.api.signUpEmail({
    body: { email, password: 'correct horse battery', name: `${label} person` },
  });
  if (!res.token) throw new Error('sign-up gave no token');
  await server.db.query('UPDATE "user" SET "emailVerified" = true WHERE id = $1', [res.user.id]);
  if (opts.sadmin) await setSuperAdmin(server.db, email, true);
  return { uid: res.user.id, token: res.token, email };
}

export interface CallResult {
  status: number;
  body: { result?: unknown; error?: { status: string; message: string; toast?: string } };
}

/** `POST /api/functions/{name}` with `{"data": data}`, as `person` (or anonymous). */
export async function call(
  server: TestServer,
  person: Person | undefined,
  name: string,
  data: unknown,
): Promise<CallResult> {
  const res = await fetch(`${server.url}/api/functions/${name}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(person ? { authorization: `Bearer ${person.token}` } : {}),
    },
    body: JSON.stringify({ data }),
  });
  return { status: res.status, body: (await res.json()) as CallResult['body'] };
}

/** A call that must succeed; answers its result. */
export async function ok<T = unknown>(
  server: TestServer,
  person: Person,
  name: string,
  data: unknown,
): Promise<T> {
  const r = await call(server, person, name, data);
  if (r.status !== 200) throw new Error(`${name} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.result as T;
}

/** `GET` as `person` (or anonymous). */
export async function get(
  server: TestServer,
  person: Person | undefined,
  path: string,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}${path}`, {
    headers: person ? { authorization: `Bearer ${person.token}` } : {},
  });
  return { status: res.status, body: await res.json() };
}

/** Adds a membership directly (test setup). */
export async function addMember(
  q: Queryable,
  organizationId: string,
  uid: string,
  type: string | null,
): Promise<void> {
  await q.query(
    `INSERT INTO organization_users (organization_id, user_id, type) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, user_id) DO UPDATE SET type = EXCLUDED.type, active = true`,
    [organizationId, uid, type],
  );
}

/** Counts rows of a table (to prove "nothing written"). */
export async function countRows(q: Queryable, table: string): Promise<number> {
  const { rows } = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]?.n ?? 0;
}
