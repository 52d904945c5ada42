import type { Organization } from '@caseroom/protocol';
import { canSeeOrganizationPeople, organizationAbilities, type Viewer } from '../policies.js';
import type { OrganizationRecord } from './queries.js';

/**
 * An organization as the viewer may see it (product-spec §3: id, eid, users with a type, activeUsers,
 * updated). Clients and guests see only their own entry.
 */
export function presentOrganization(org: OrganizationRecord, viewer: Viewer): Organization {
  const visible = canSeeOrganizationPeople(viewer, org.id)
    ? org.members
    : org.members.filter((m) => m.userId === viewer.uid);
  const users: Organization['users'] = {};
  for (const m of visible) if (m.type !== null) users[m.userId] = { type: m.type };
  return {
    id: org.id,
    eid: org.eid,
    name: org.name,
    users,
    activeUsers: visible.filter((m) => m.active).map((m) => m.userId),
    updated: new Date(org.updated).toISOString(),
    policies: organizationAbilities(viewer, org.id),
  };
}
