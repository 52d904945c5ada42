import type { Queryable } from '../../platform/db.js';
import { ProductError } from '../errors.js';

export interface RoleRow {
  id: string;
  caseplan_id: string;
  name: string;
  client: boolean;
  temp_name: string | null;
  team_id: string | null;
  user_id: string | null;
  invite: string | null;
}

/** The role on this case plan, or 'Role not found' (also for a role of another case plan). */
export async function loadRole(q: Queryable, caseplanId: string, roleId: string): Promise<RoleRow> {
  const { rows } = await q.query<RoleRow>('SELECT * FROM roles WHERE id = $1 AND caseplan_id = $2', [
    roleId,
    caseplanId,
  ]);
  const role = rows[0];
  if (!role) throw new ProductError('not-found', 'Role not found');
  return role;
}

/** The team on this case plan, or 'Team not found'. */
export async function requireTeam(q: Queryable, caseplanId: string, teamId: string): Promise<void> {
  const { rowCount } = await q.query('SELECT 1 FROM teams WHERE id = $1 AND caseplan_id = $2', [
    teamId,
    caseplanId,
  ]);
  if (rowCount === 0) throw new ProductError('not-found', 'Team not found');
}

/** The person's place on the case plan, as the audit log keeps it. */
export async function membershipSnapshot(q: Queryable, caseplanId: string, userId: string) {
  const { rows } = await q.query<{
    role_id: string | null;
    team_id: string | null;
    active: boolean;
    client: boolean;
  }>('SELECT role_id, team_id, active, client FROM caseplan_users WHERE caseplan_id = $1 AND user_id = $2', [
    caseplanId,
    userId,
  ]);
  return rows[0] ?? null;
}

/**
 * Seats `userId` in `role` on the case plan (product-spec §5 role rules): the role needs a team ('Role has no
 * team'), a user ('Role has no user' when none is given and the role has none), and may not belong to someone
 * else. The person must be active in the organization; their previous role on the plan is vacated.
 */
export async function seatUser(
  q: Queryable,
  organizationId: string,
  role: RoleRow,
  userId: string | undefined,
): Promise<string> {
  if (!role.team_id) throw new ProductError('failed-precondition', 'Role has no team');
  const uid = userId ?? role.user_id;
  if (!uid) throw new ProductError('failed-precondition', 'Role has no user');
  if (role.user_id && role.user_id !== uid) {
    throw new ProductError('failed-precondition', 'Role already has a user');
  }
  const member = await q.query(
    'SELECT 1 FROM organization_users WHERE organization_id = $1 AND user_id = $2 AND active',
    [organizationId, uid],
  );
  if (member.rowCount === 0)
    throw new ProductError('failed-precondition', 'User is not part of the organization');
  await q.query('UPDATE roles SET user_id = NULL WHERE caseplan_id = $1 AND user_id = $2 AND id <> $3', [
    role.caseplan_id,
    uid,
    role.id,
  ]);
  await q.query('UPDATE roles SET user_id = $2, invite = NULL WHERE id = $1', [role.id, uid]);
  await q.query(
    `INSERT INTO caseplan_users (caseplan_id, user_id, role_id, team_id, active, client)
     VALUES ($1, $2, $3, $4, true, $5)
     ON CONFLICT (caseplan_id, user_id) DO UPDATE SET role_id = EXCLUDED.role_id, team_id = EXCLUDED.team_id,
       active = true, client = EXCLUDED.client, updated = now()`,
    [role.caseplan_id, uid, role.id, role.team_id, role.client],
  );
  return uid;
}

/** Keeps the seated person's entry in step with their role (team, client flag, or vacated). */
export async function syncRoleHolder(q: Queryable, role: RoleRow): Promise<void> {
  await q.query(
    `UPDATE caseplan_users SET team_id = $3, client = $4, updated = now()
      WHERE caseplan_id = $1 AND role_id = $2`,
    [role.caseplan_id, role.id, role.team_id, role.client],
  );
  await q.query(
    `UPDATE caseplan_users SET role_id = NULL, team_id = NULL, client = false, updated = now()
      WHERE caseplan_id = $1 AND role_id = $2 AND user_id IS DISTINCT FROM $3`,
    [role.caseplan_id, role.id, role.user_id],
  );
}
