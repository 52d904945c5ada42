import type { OrganizationMembers, OrganizationUserType } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';

/** `GET /api/organizations/{id}/members`: people (with e-mail) and open invites, for its admins. */
export async function readMembers(q: Queryable, organizationId: string): Promise<OrganizationMembers> {
  const [members, invites] = await Promise.all([
    q.query<{
      id: string;
      name: string;
      email: string;
      photo: string | null;
      type: OrganizationUserType | null;
      active: boolean;
    }>(
      `SELECT u.id, COALESCE(p.name, u.name) AS name, u.email, COALESCE(p.photo, u.image) AS photo, ou.type, ou.active
         FROM organization_users ou JOIN "user" u ON u.id = ou.user_id LEFT JOIN profiles p ON p.id = u.id
        WHERE ou.organization_id = $1
        ORDER BY ou.active DESC, lower(COALESCE(p.name, u.name)), u.id`,
      [organizationId],
    ),
    q.query<{ id: string; email: string; type: string; invited_by: string; created: Date }>(
      `SELECT id, email, type, invited_by, created FROM organization_invites
        WHERE organization_id = $1 AND accepted_at IS NULL ORDER BY created DESC`,
      [organizationId],
    ),
  ]);
  return {
    members: members.rows.map((m) => ({ ...m, admin: m.active && (m.type === 'admin' || m.type === null) })),
    invites: invites.rows.map((i) => ({
      id: i.id,
      email: i.email,
      type: i.type,
      invitedBy: i.invited_by,
      created: new Date(i.created).toISOString(),
    })),
  };
}
