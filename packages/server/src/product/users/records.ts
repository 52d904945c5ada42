import type { Queryable } from '../../platform/db.js';

/** Fields of the user record a client may set (product-spec §3 User; `language` picks the mail language). */
export interface UserRecordPatch {
  name?: string;
  photo?: string | null;
  timezone?: string | null;
  language?: string | null;
  phone?: string | null;
}

/** A device entry of the user record's `devices` map (product-spec §3, §7 register/unregister). */
export interface DeviceInfo {
  token: string;
  name: string;
  osVersion: string;
  model: string;
  platform: string;
}

const COLUMNS: Record<keyof UserRecordPatch, string> = {
  name: 'name',
  photo: 'photo',
  timezone: 'timezone',
  language: 'language',
  phone: 'phone',
};

function assignments(patch: UserRecordPatch, first: number): { sql: string[]; values: unknown[] } {
  const sql: string[] = [];
  const values: unknown[] = [];
  for (const [field, column] of Object.entries(COLUMNS) as [keyof UserRecordPatch, string][]) {
    if (patch[field] === undefined) continue;
    values.push(patch[field]);
    sql.push(`${column} = $${first + values.length - 1}`);
  }
  return { sql, values };
}

/**
 * `createUser(uid, data)` (product-spec §7 user service): creates the record from the auth account and merges
 * `data` in; an existing record keeps the fields `data` does not name.
 */
export async function createUser(q: Queryable, uid: string, data: UserRecordPatch): Promise<void> {
  await q.query(
    `INSERT INTO profiles (id, name, photo) SELECT id, name, image FROM "user" WHERE id = $1
     ON CONFLICT (id) DO NOTHING`,
    [uid],
  );
  const { sql, values } = assignments(data, 2);
  if (sql.length > 0) await q.query(`UPDATE profiles SET ${sql.join(', ')} WHERE id = $1`, [uid, ...values]);
}

/** Updates the record and stamps `updated`; answers false when there is no record. */
export async function updateUser(q: Queryable, uid: string, patch: UserRecordPatch): Promise<boolean> {
  const { sql, values } = assignments(patch, 2);
  const r = await q.query(`UPDATE profiles SET ${[...sql, 'updated = now()'].join(', ')} WHERE id = $1`, [
    uid,
    ...values,
  ]);
  // The account's own name and image follow, so better-auth's session shows the same person.
  if (patch.name !== undefined) await q.query('UPDATE "user" SET name = $2 WHERE id = $1', [uid, patch.name]);
  return r.rowCount > 0;
}

/** `updateLastLogin(uid)`. */
export async function updateLastLogin(q: Queryable, uid: string): Promise<void> {
  await q.query('UPDATE profiles SET last_login = now() WHERE id = $1', [uid]);
}

/** Adds or replaces the device `deviceId` in the `devices` map, stamping its `lastUpdated`. */
export async function registerDevice(
  q: Queryable,
  uid: string,
  deviceId: string,
  device: DeviceInfo,
): Promise<void> {
  const entry = { ...device, lastUpdated: new Date().toISOString() };
  await q.query(
    `UPDATE profiles SET devices = devices || jsonb_build_object($2::text, $3::jsonb), updated = now()
      WHERE id = $1`,
    [uid, deviceId, JSON.stringify(entry)],
  );
}

/** Removes the device `deviceId` from the `devices` map (nothing when it is not there). */
export async function unregisterDevice(q: Queryable, uid: string, deviceId: string): Promise<void> {
  await q.query(`UPDATE profiles SET devices = devices - $2::text, updated = now() WHERE id = $1`, [
    uid,
    deviceId,
  ]);
}

/** The `devices` map of the record. */
export async function devicesOf(q: Queryable, uid: string): Promise<Record<string, DeviceInfo>> {
  const { rows } = await q.query<{ devices: Record<string, DeviceInfo> }>(
    'SELECT devices FROM profiles WHERE id = $1',
    [uid],
  );
  return rows[0]?.devices ?? {};
}
