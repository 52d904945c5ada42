import type { Queryable } from '../../platform/db.js';

/** A case plan with its teams, roles and people, as stored. */
export interface CaseplanRecord {
  id: string;
  organization_id: string;
  name: string;
  created_by: string;
  custom: Record<string, unknown>;
  closed: boolean;
  created: Date;
  updated: Date;
  teams: { id: string; name: string; organization_id: string }[];
  roles: {
    id: string;
    name: string;
    client: boolean;
    temp_name: string | null;
    team_id: string | null;
    user_id: string | null;
    invite: string | null;
  }[];
  users: {
    user_id: string;
    role_id: string | null;
    team_id: string | null;
    active: boolean;
    client: boolean;
  }[];
  /** The newest close or reopen, if any. */
  closing: { action: 'close' | 'reopen'; by_user: string; reason: string | null; at: Date } | null;
}

type CaseplanRow = Omit<CaseplanRecord, 'teams' | 'roles' | 'users' | 'closing'>;

/**
 * Ids of the case plans `uid` may be able to read (product-spec §6: where they are active, or by
 * organization for its admins and for the creator), optionally within one organization. The policy has the
 * last word on each; this only narrows the search.
 */
export async function candidateCaseplanIds(
  q: Queryable,
  uid: string,
  organizationId?: string,
): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT c.id FROM caseplans c
      WHERE ($2::text IS NULL OR c.organization_id = $2)
        AND (EXISTS (SELECT 1 FROM caseplan_users cu
                      WHERE cu.caseplan_id = c.id AND cu.user_id = $1 AND cu.active)
             OR EXISTS (SELECT 1 FROM organization_users ou
                         WHERE ou.organization_id = c.organization_id AND ou.user_id = $1 AND ou.active
                           AND (ou.type = 'admin' OR ou.type IS NULL OR c.created_by = $1)))
      ORDER BY c.created, c.id`,
    [uid, organizationId ?? null],
  );
  return rows.map((r) => r.id);
}

/** Loads case plans with teams, roles and people, in the order of `ids` (missing ids are skipped). */
export async function loadCaseplans(q: Queryable, ids: string[]): Promise<CaseplanRecord[]> {
  if (ids.length === 0) return [];
  const [plans, teams, roles, users, closings] = await Promise.all([
    q.query<CaseplanRow>(
      `SELECT id, organization_id, name, created_by, custom, closed, created, updated
         FROM caseplans WHERE id = ANY($1)`,
      [ids],
    ),
    q.query<CaseplanRecord['teams'][number] & { caseplan_id: string }>(
      'SELECT id, caseplan_id, name, organization_id FROM teams WHERE caseplan_id = ANY($1) ORDER BY name, id',
      [ids],
    ),
    q.query<CaseplanRecord['roles'][number] & { caseplan_id: string }>(
      `SELECT id, caseplan_id, name, client, temp_name, team_id, user_id, invite
         FROM roles WHERE caseplan_id = ANY($1) ORDER BY name, id`,
      [ids],
    ),
    q.query<CaseplanRecord['users'][number] & { caseplan_id: string }>(
      `SELECT caseplan_id, user_id, role_id, team_id, active, client
         FROM caseplan_users WHERE caseplan_id = ANY($1) ORDER BY created, user_id`,
      [ids],
    ),
    q.query<NonNullable<CaseplanRecord['closing']> & { caseplan_id: string }>(
      `SELECT DISTINCT ON (caseplan_id) caseplan_id, action, by_user, reason, at
         FROM caseplan_closings WHERE caseplan_id = ANY($1) ORDER BY caseplan_id, id DESC`,
      [ids],
    ),
  ]);
  const byId = new Map<string, CaseplanRecord>(
    plans.rows.map((p) => [p.id, { ...p, teams: [], roles: [], users: [], closing: null }]),
  );
  for (const { caseplan_id, ...c } of closings.rows) {
    const record = byId.get(caseplan_id);
    if (record) record.closing = c;
  }
  for (const { caseplan_id, ...t } of teams.rows) byId.get(caseplan_id)?.teams.push(t);
  for (const { caseplan_id, ...r } of roles.rows) byId.get(caseplan_id)?.roles.push(r);
  for (const { caseplan_id, ...u } of users.rows) byId.get(caseplan_id)?.users.push(u);
  return ids.flatMap((id) => byId.get(id) ?? []);
}
