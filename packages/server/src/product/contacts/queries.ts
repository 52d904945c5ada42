import type { Contact } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';

/**
 * The caller's contacts (product-spec §3 Contact), the caller included: everyone active on a case plan where
 * the caller is active, and, for organization staff (admins and team members), everyone active in their
 * organizations. Clients and guests therefore only meet the people of their own case plans.
 * `organizations` are the shared organizations, `caseplans` the shared case plans and `caseplanOrganizations`
 * the organizations of those case plans.
 */
export async function loadContacts(q: Queryable, uid: string, onlyIds?: string[]): Promise<Contact[]> {
  const { rows } = await q.query<{
    id: string;
    name: string;
    photo: string | null;
    caseplans: string[];
    caseplan_organizations: string[];
    organizations: string[];
    is_client: boolean;
    is_on_team: boolean;
  }>(
    `WITH my_plans AS (
       SELECT cu.caseplan_id, c.organization_id FROM caseplan_users cu JOIN caseplans c ON c.id = cu.caseplan_id
        WHERE cu.user_id = $1 AND cu.active),
     my_orgs AS (SELECT organization_id, type FROM organization_users WHERE user_id = $1 AND active),
     plan_people AS (
       SELECT cu.user_id, mp.caseplan_id, mp.organization_id, cu.client
         FROM caseplan_users cu JOIN my_plans mp ON mp.caseplan_id = cu.caseplan_id WHERE cu.active),
     org_people AS (
       SELECT ou.user_id, ou.organization_id, ou.type
         FROM organization_users ou JOIN my_orgs mo ON mo.organization_id = ou.organization_id WHERE ou.active),
     ids AS (
       SELECT user_id FROM plan_people
       UNION
       SELECT op.user_id FROM org_people op JOIN my_orgs mo ON mo.organization_id = op.organization_id
        WHERE mo.type IS NULL OR mo.type IN ('admin', 'member'))
     SELECT u.id, COALESCE(p.name, u.name) AS name, COALESCE(p.photo, u.image) AS photo,
            ARRAY(SELECT DISTINCT pp.caseplan_id FROM plan_people pp WHERE pp.user_id = u.id ORDER BY 1) AS caseplans,
            ARRAY(SELECT DISTINCT pp.organization_id FROM plan_people pp WHERE pp.user_id = u.id ORDER BY 1)
              AS caseplan_organizations,
            ARRAY(SELECT DISTINCT op.organization_id FROM org_people op WHERE op.user_id = u.id ORDER BY 1)
              AS organizations,
            (EXISTS (SELECT 1 FROM plan_people pp WHERE pp.user_id = u.id AND pp.client)
              OR EXISTS (SELECT 1 FROM org_people op WHERE op.user_id = u.id AND op.type = 'client')) AS is_client,
            EXISTS (SELECT 1 FROM org_people op WHERE op.user_id = u.id
                     AND (op.type IS NULL OR op.type IN ('admin', 'member'))) AS is_on_team
       FROM ids JOIN "user" u ON u.id = ids.user_id LEFT JOIN profiles p ON p.id = u.id
      WHERE $2::text[] IS NULL OR u.id = ANY($2)
      ORDER BY lower(COALESCE(p.name, u.name)), u.id`,
    [uid, onlyIds ?? null],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    photo: r.photo,
    isOnTeam: r.is_on_team && !r.is_client,
    isClient: r.is_client,
    organizations: r.organizations,
    caseplans: r.caseplans,
    caseplanOrganizations: r.caseplan_organizations,
  }));
}
