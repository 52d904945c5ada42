import type { Queryable } from '../../platform/db.js';
import { caseplanFacts } from '../caseplans/presenters.js';
import { loadCaseplans, type CaseplanRecord } from '../caseplans/queries.js';
import { ProductError, notFound } from '../errors.js';
import { loadViewer } from '../organizations/queries.js';
import {
  PERMISSIONS,
  canInOrganization,
  canOnCaseplan,
  isOrgUser,
  type OperationName,
  type Viewer,
} from '../policies.js';

/**
 * The authorization step of every callable and read: load the facts, ask the policy, and refuse with the
 * right error. Someone outside the organization always gets 'not found' (the same answer as for an id that
 * does not exist), so ids cannot be probed; someone inside gets 'permission denied'.
 */

const DENIED: Partial<Record<OperationName, string>> = {
  'organizations.create': 'Only a super-admin may create organizations',
  'organizations.manage': 'User is not an organization admin',
  'organizations.audit': 'User is not an organization admin',
  'settings.write': 'User is not an organization admin',
  'caseplans.close': 'User is not an organization admin',
  'caseplans.edit': 'User may not edit this caseplan',
  'caseplans.stats': 'User may not read caseplan statistics',
  'caseplans.create': 'User may not create caseplans in this organization',
};

/** Refuses unless the viewer may perform organization-scoped `op` on `organizationId`. */
export async function authorizeOrganization(
  q: Queryable,
  uid: string,
  op: OperationName,
  organizationId: string,
): Promise<Viewer> {
  if (PERMISSIONS[op].scope !== 'organization') throw new Error(`${op} is not organization-scoped`);
  const viewer = await loadViewer(q, uid);
  const { rowCount } = await q.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId]);
  if (rowCount === 0) throw notFound('Organization');
  if (canInOrganization(viewer, op, organizationId)) return viewer;
  if (!isOrgUser(viewer, organizationId) && !viewer.sadmin) throw notFound('Organization');
  throw new ProductError(
    'permission-denied',
    isOrgUser(viewer, organizationId)
      ? (DENIED[op] ?? 'Permission denied')
      : 'User is not part of the organization',
  );
}

export interface AuthorizedCaseplan {
  viewer: Viewer;
  record: CaseplanRecord;
}

/**
 * Refuses unless the viewer may perform case-plan-scoped `op` on `caseplanId`. With `write`, the case plan
 * row is locked for the rest of the transaction and a closed case plan refuses ('Caseplan is closed').
 */
export async function authorizeCaseplan(
  q: Queryable,
  uid: string,
  op: OperationName,
  caseplanId: string,
  options: { write?: boolean; allowClosed?: boolean } = {},
): Promise<AuthorizedCaseplan> {
  if (PERMISSIONS[op].scope !== 'caseplan') throw new Error(`${op} is not caseplan-scoped`);
  if (options.write) await q.query('SELECT 1 FROM caseplans WHERE id = $1 FOR UPDATE', [caseplanId]);
  const [record] = await loadCaseplans(q, [caseplanId]);
  if (!record) throw notFound('Caseplan');
  const viewer = await loadViewer(q, uid);
  const facts = caseplanFacts(record);
  if (!canOnCaseplan(viewer, op, facts)) {
    if (!isOrgUser(viewer, record.organization_id)) throw notFound('Caseplan');
    const onPlan = facts.users[uid]?.active === true;
    throw new ProductError(
      'permission-denied',
      onPlan ? (DENIED[op] ?? 'Permission denied') : 'User not on caseplan',
    );
  }
  if (options.write && record.closed && !options.allowClosed) {
    throw new ProductError(
      'failed-precondition',
      'Caseplan is closed',
      'This case plan is closed. Reopen it to make changes.',
    );
  }
  return { viewer, record };
}
