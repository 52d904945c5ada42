import type { Organization } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { canReadOrganization } from '../policies.js';
import { loadViewer, loadOrganizations, organizationIdsOf } from './queries.js';
import { presentOrganization } from './presenters.js';

/**
 * `GET /api/organizations`: the organizations where the user is active (every organization for a
 * super-admin, who administers them), as the user may see them.
 */
export async function listOrganizations(q: Queryable, uid: string): Promise<Organization[]> {
  const viewer = await loadViewer(q, uid);
  const ids = viewer.sadmin ? await allOrganizationIds(q) : await organizationIdsOf(q, uid);
  const records = await loadOrganizations(q, ids);
  return records.filter((o) => canReadOrganization(viewer, o.id)).map((o) => presentOrganization(o, viewer));
}

async function allOrganizationIds(q: Queryable): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>('SELECT id FROM organizations ORDER BY created, id');
  return rows.map((r) => r.id);
}
