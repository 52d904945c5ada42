import type { OrganizationUserType } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Membership, Viewer } from '../policies.js';

/** An organization with its memberships, as stored. */
export interface OrganizationRecord {
  id: string;
  eid: string | null;
  name: string;
  updated: Date;
  members: { userId: string; type: OrganizationUserType | null; active: boolean }[];
}

/** The policy facts about `uid`: super-admin claim and organization memberships. */
export async function loadViewer(q: Queryable, uid: string): Promise<Viewer> {
  const [profile, memberships] = await Promise.all([
    q.query<{ sadmin: boolean }>('SELECT sadmin FROM profiles WHERE id = $1', [uid]),
    q.query<{ organization_id: string; type: OrganizationUserType | null; active: boolean }>(
      'SELECT organization_id, type, active FROM organization_users WHERE user_id = $1',
      [uid],
    ),
  ]);
  const organizations = new Map<string, Membership>(
    memberships.rows.map((m) => [m.organization_id, { type: m.type, active: m.active }]),
  );
  return { uid, sadmin: profile.rows[0]?.sadmin ?? false, organizations };
}

/** The organizations where `uid` has an active membership, oldest first. */
export async function organizationIdsOf(q: Queryable, uid: string): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT o.id FROM organizations o JOIN organization_users ou ON ou.organization_id = o.id
      WHERE ou.user_id = $1 AND ou.active ORDER BY o.created, o.id`,
    [uid],
  );
  return rows.map((r) => r.id);
}

/** Loads organizations with their memberships, in the order of `ids`. */
export async function loadOrganizations(q: Queryable, ids: string[]): Promise<OrganizationRecord[]> {
  if (ids.length === 0) return [];
  const [orgs, members] = await Promise.all([
    q.query<{ id: string; eid: string | null; name: string; updated: Date }>(
      'SELECT id, eid, name, updated FROM organizations WHERE id = ANY($1)',
      [ids],
    ),
    q.query<{ organization_id: string; user_id: string; type: OrganizationUserType | null; active: boolean }>(
      `SELECT organization_id, user_id, type, active FROM organization_users
        WHERE organization_id = ANY($1) ORDER BY created, user_id`,
      [ids],
    ),
  ]);
  const byId = new Map(orgs.rows.map((o) => [o.id, { ...o, members: [] as OrganizationRecord['members'] }]));
  for (const m of members.rows) {
    byId.get(m.organization_id)?.members.push({ userId: m.user_id, type: m.type, active: m.active });
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}
