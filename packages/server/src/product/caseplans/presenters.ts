import type { Caseplan } from '@caseroom/protocol';
import { caseplanAbilities, type CaseplanFacts, type Viewer } from '../policies.js';
import { presentCustomValues } from '../settings/visibility.js';
import type { CaseplanRecord } from './queries.js';

/** The facts the case plan policies need. */
export function caseplanFacts(record: CaseplanRecord): CaseplanFacts {
  return {
    organization: record.organization_id,
    createdBy: record.created_by,
    users: Object.fromEntries(record.users.map((u) => [u.user_id, { active: u.active, client: u.client }])),
  };
}

/**
 * A case plan in the spec's field names (product-spec §3), with the viewer's abilities on it. `staffOnly` names the
 * organization's staff-only custom fields (`caseplan-fields`); their values are left out for clients and guests.
 */
export function presentCaseplan(
  record: CaseplanRecord,
  viewer: Viewer,
  staffOnly: ReadonlySet<string>,
): Caseplan {
  const facts = caseplanFacts(record);
  const users: Caseplan['users'] = {};
  for (const u of record.users) {
    users[u.user_id] = { role: u.role_id, team: u.team_id, active: u.active, roleData: { client: u.client } };
  }
  const roles: Caseplan['roles'] = {};
  for (const r of record.roles) {
    roles[r.id] = {
      id: r.id,
      name: r.name,
      client: r.client,
      tempName: r.temp_name,
      team: r.team_id,
      user: r.user_id,
      invite: r.invite,
    };
  }
  const teams: Caseplan['teams'] = {};
  for (const t of record.teams) teams[t.id] = { id: t.id, name: t.name, organization: t.organization_id };
  return {
    id: record.id,
    name: record.name,
    organization: record.organization_id,
    users,
    roles,
    teams,
    activeUsers: record.users.filter((u) => u.active).map((u) => u.user_id),
    createdBy: record.created_by,
    closed: record.closed,
    created: new Date(record.created).toISOString(),
    updated: new Date(record.updated).toISOString(),
    custom: presentCustomValues(record.custom, staffOnly, viewer, record.organization_id, facts),
    closing: record.closing
      ? {
          action: record.closing.action,
          by: record.closing.by_user,
          at: new Date(record.closing.at).toISOString(),
          reason: record.closing.reason,
        }
      : null,
    policies: caseplanAbilities(viewer, facts),
  };
}
