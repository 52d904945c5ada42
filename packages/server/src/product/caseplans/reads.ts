import type { Caseplan } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { ProductError, notFound } from '../errors.js';
import { loadViewer } from '../organizations/queries.js';
import { canListOrganizationCaseplans, canReadCaseplan } from '../policies.js';
import { loadStaffOnlyFields } from '../settings/visibility.js';
import { caseplanFacts, presentCaseplan } from './presenters.js';
import { candidateCaseplanIds, loadCaseplans } from './queries.js';

/**
 * `GET /api/caseplans`: the case plans the user may read, optionally within one organization (which the
 * user must be part of: 'User is not part of the organization').
 */
export async function listCaseplans(q: Queryable, uid: string, organization?: string): Promise<Caseplan[]> {
  const viewer = await loadViewer(q, uid);
  if (organization !== undefined && !canListOrganizationCaseplans(viewer, organization)) {
    throw new ProductError('permission-denied', 'User is not part of the organization');
  }
  const records = await loadCaseplans(q, await candidateCaseplanIds(q, uid, organization));
  const readable = records.filter((r) => canReadCaseplan(viewer, caseplanFacts(r)));
  const staffOnly = await loadStaffOnlyFields(
    q,
    readable.map((r) => r.organization_id),
    'caseplan-fields',
  );
  return readable.map((r) => presentCaseplan(r, viewer, staffOnly.get(r.organization_id) ?? new Set()));
}

/**
 * `GET /api/caseplans/{id}`. A case plan the user may not read is 'not found' unless the user is part of its
 * organization (then 'permission denied'), so ids cannot be probed from outside an organization.
 */
export async function readCaseplan(q: Queryable, uid: string, id: string): Promise<Caseplan> {
  const [record] = await loadCaseplans(q, [id]);
  if (!record) throw notFound('Caseplan');
  const viewer = await loadViewer(q, uid);
  if (canReadCaseplan(viewer, caseplanFacts(record))) {
    const staffOnly = await loadStaffOnlyFields(q, [record.organization_id], 'caseplan-fields');
    return presentCaseplan(record, viewer, staffOnly.get(record.organization_id) ?? new Set());
  }
  if (canListOrganizationCaseplans(viewer, record.organization_id)) {
    throw new ProductError('permission-denied', 'User not on caseplan');
  }
  throw notFound('Caseplan');
}
