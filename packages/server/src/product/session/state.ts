import type { SessionState } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { caseplanFacts } from '../caseplans/presenters.js';
import { candidateCaseplanIds, loadCaseplans } from '../caseplans/queries.js';
import { ProductError } from '../errors.js';
import { loadViewer, organizationIdsOf } from '../organizations/queries.js';
import { canOnCaseplan, canReadCaseplan, canReadOrganization, isOrgAdmin, isOrgUser } from '../policies.js';

/** Records the selection, and for a case plan that the user opened it (`lastOpenedAt`, product-spec §4). */
export async function recordSelection(
  q: Queryable,
  uid: string,
  selection: { caseplanId?: string | null; organizationId: string | null },
): Promise<void> {
  await q.query(
    `INSERT INTO session_selections (user_id, caseplan_id, organization_id) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET
       caseplan_id = CASE WHEN $4 THEN EXCLUDED.caseplan_id ELSE session_selections.caseplan_id END,
       organization_id = EXCLUDED.organization_id, updated = now()`,
    [uid, selection.caseplanId ?? null, selection.organizationId, selection.caseplanId !== undefined],
  );
  if (selection.caseplanId) {
    await q.query(
      `INSERT INTO caseplan_stats (caseplan_id, user_id, last_opened_at) VALUES ($1, $2, now())
       ON CONFLICT (caseplan_id, user_id) DO UPDATE SET last_opened_at = now(), updated = now()`,
      [selection.caseplanId, uid],
    );
  }
}

/**
 * The checks of selecting a case plan (product-spec §4-§5): the user is active on it ('User not on caseplan')
 * with a role ('User has no role on caseplan') and a team ('User has no team on caseplan').
 */
export async function checkCaseplanSelectable(
  q: Queryable,
  uid: string,
  caseplanId: string,
): Promise<string> {
  const [record] = await loadCaseplans(q, [caseplanId]);
  const viewer = await loadViewer(q, uid);
  if (!record) throw new ProductError('not-found', 'Caseplan not found');
  // Outside the organization the case plan does not exist; inside it, the reason is said.
  if (!isOrgUser(viewer, record.organization_id)) throw new ProductError('not-found', 'Caseplan not found');
  const entry = record.users.find((u) => u.user_id === uid && u.active);
  if (!entry || !canOnCaseplan(viewer, 'caseplans.participate', caseplanFacts(record))) {
    throw new ProductError('permission-denied', 'User not on caseplan');
  }
  if (!entry.role_id) throw new ProductError('failed-precondition', 'User has no role on caseplan');
  if (!entry.team_id) throw new ProductError('failed-precondition', 'User has no team on caseplan');
  return record.organization_id;
}

/**
 * The session (product-spec §4): the user's case plans and organizations, and the selection. A stored
 * selection the user lost access to is dropped; with none, the first case plan the user can open and the
 * first organization are selected (and recorded).
 */
export async function loadSessionState(q: Queryable, uid: string): Promise<SessionState> {
  const viewer = await loadViewer(q, uid);
  const organizations = (await organizationIdsOf(q, uid)).filter((id) => canReadOrganization(viewer, id));
  const records = await loadCaseplans(q, await candidateCaseplanIds(q, uid));
  const readable = records.filter((r) => canReadCaseplan(viewer, caseplanFacts(r)));
  const openable = readable.filter((r) => {
    const entry = r.users.find((u) => u.user_id === uid && u.active);
    return (
      entry?.role_id && entry.team_id && canOnCaseplan(viewer, 'caseplans.participate', caseplanFacts(r))
    );
  });
  const { rows } = await q.query<{ caseplan_id: string | null; organization_id: string | null }>(
    'SELECT caseplan_id, organization_id FROM session_selections WHERE user_id = $1',
    [uid],
  );
  const stored = rows[0];
  let caseplan = openable.find((r) => r.id === stored?.caseplan_id)?.id ?? null;
  let organization = organizations.find((id) => id === stored?.organization_id) ?? null;
  if (!caseplan && !stored?.caseplan_id && openable[0]) caseplan = openable[0].id;
  if (!caseplan && stored?.caseplan_id) caseplan = openable[0]?.id ?? null;
  const caseplanOrg = readable.find((r) => r.id === caseplan)?.organization_id ?? null;
  organization ??= caseplanOrg ?? organizations[0] ?? null;
  if (caseplan !== (stored?.caseplan_id ?? null) || organization !== (stored?.organization_id ?? null)) {
    await recordSelection(q, uid, { caseplanId: caseplan, organizationId: organization });
  }
  return {
    uid,
    caseplans: readable.map((r) => r.id),
    organizations,
    selectedCaseplan: caseplan,
    selectedOrganization: organization,
    isOrgAdmin: organization ? isOrgAdmin(viewer, organization) : false,
  };
}
