import type { Organization } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { canReadOrganization } from '../policies.js';
import { loadViewer, loadOrganizations, organizationIdsOf } from './queries.js';
import { presentOrganization } from './presenters.js';

/** `GET /api/organizations`: the organizations where the user is active, as the user may see them. */
export async function listOrganizations(q: Queryable, uid: string): Promise<Organization[]> {
  const viewer = await loadViewer(q, uid);
  const records = await loadOrganizations(q, await organizationIdsOf(q, uid));
  return records.filter((o) => canReadOrganization(viewer, o.id)).map((o) => presentOrganization(o, viewer));
}
