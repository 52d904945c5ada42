import { SessionSelectCaseplanData, SessionSelectOrganizationData } from '@caseroom/protocol';
import { z } from 'zod';
import { authorizeOrganization } from '../callables/authorize.js';
import { defineCallable } from '../callables/registry.js';
import { claimInvites } from '../organizations/membership.js';
import { checkCaseplanSelectable, loadSessionState, recordSelection } from './state.js';

/** `session-load`, `session-selectCaseplan`, `session-selectOrganization` (product-spec §4-§5). */
export function sessionCallables() {
  const load = defineCallable({
    name: 'session-load',
    data: z.unknown(),
    // Every signed-in user loads their own session.
    authorize: async () => undefined,
    action: async ({ caller, q }) => {
      await claimInvites(q, caller.uid);
      return loadSessionState(q, caller.uid);
    },
  });

  const selectCaseplan = defineCallable({
    name: 'session-selectCaseplan',
    data: SessionSelectCaseplanData,
    authorize: async ({ caller, q }, d) => {
      await checkCaseplanSelectable(q, caller.uid, d.caseplanId);
    },
    action: async ({ caller, q }, d) => {
      const organizationId = await checkCaseplanSelectable(q, caller.uid, d.caseplanId);
      await recordSelection(q, caller.uid, { caseplanId: d.caseplanId, organizationId });
      return loadSessionState(q, caller.uid);
    },
  });

  const selectOrganization = defineCallable({
    name: 'session-selectOrganization',
    data: SessionSelectOrganizationData,
    authorize: async ({ caller, q }, d) => {
      await authorizeOrganization(q, caller.uid, 'organizations.read', d.organizationId);
    },
    action: async ({ caller, q }, d) => {
      await recordSelection(q, caller.uid, { organizationId: d.organizationId });
      return loadSessionState(q, caller.uid);
    },
  });

  return [load, selectCaseplan, selectOrganization];
}
