import {
  SessionLoadData,
  SessionSelectCaseplanData,
  SessionSelectOrganizationData,
} from '@caseroom/protocol';
import { authorizeOrganization } from '../callables/authorize.js';
import type { CallableDeps } from '../callables/deps.js';
import { defineCallable } from '../callables/registry.js';
import { syncChatUsers } from '../caseplans/chat-links.js';
import { verifyInviteToken } from '../organizations/invite-mail.js';
import { claimInvites } from '../organizations/membership.js';
import { checkCaseplanSelectable, loadSessionState, recordSelection } from './state.js';

/** `session-load`, `session-selectCaseplan`, `session-selectOrganization` (product-spec §4-§5). */
export function sessionCallables({ config }: CallableDeps) {
  const load = defineCallable({
    name: 'session-load',
    data: SessionLoadData,
    // Every signed-in user loads their own session.
    authorize: async () => undefined,
    action: async ({ caller, q, chat }, d) => {
      // A forged or foreign token proves nothing: the verified-address rule applies alone.
      const proven = d?.invite ? verifyInviteToken(config.authSecret, d.invite) : null;
      const joined = await claimInvites(q, caller.uid, proven);
      // A new member's chat user gets clientOf / guestOf for the organizations joined, in this transaction.
      if (joined.length > 0) await syncChatUsers(chat, q, [caller.uid]);
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
