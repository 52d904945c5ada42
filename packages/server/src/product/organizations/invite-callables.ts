import { OrganizationInviteRefData } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { recordAudit } from '../audit/record.js';
import { authorizeOrganization } from '../callables/authorize.js';
import type { CallableDeps } from '../callables/deps.js';
import { defineCallable } from '../callables/registry.js';
import { ProductError, notFound } from '../errors.js';

/** An invite may be re-sent once this many seconds passed since it was last mailed. */
export const RESEND_INTERVAL_SECONDS = 60;

interface OpenInvite {
  id: string;
  email: string;
  type: string;
  recent: boolean;
}

/** The open invite `inviteId` of the organization, locked for this transaction; 'not found' otherwise. */
async function lockOpenInvite(q: Queryable, organizationId: string, inviteId: string): Promise<OpenInvite> {
  const { rows } = await q.query<OpenInvite>(
    `SELECT id, email, type,
            COALESCE(last_sent_at, created) > now() - make_interval(secs => $3) AS recent
       FROM organization_invites
      WHERE id = $1 AND organization_id = $2 AND accepted_at IS NULL
      FOR UPDATE`,
    [inviteId, organizationId, RESEND_INTERVAL_SECONDS],
  );
  if (!rows[0]) throw notFound('Invite');
  return rows[0];
}

/** `organizations-resendInvite` and `organizations-cancelInvite` (issue 15), for organization admins. */
export function inviteCallables({ invites }: CallableDeps) {
  const resend = defineCallable({
    name: 'organizations-resendInvite',
    data: OrganizationInviteRefData,
    authorize: async ({ caller, q }, d) => {
      await authorizeOrganization(q, caller.uid, 'organizations.manage', d.organizationId);
    },
    action: async ({ caller, q }, d) => {
      const invite = await lockOpenInvite(q, d.organizationId, d.inviteId);
      if (invite.recent) {
        throw new ProductError(
          'resource-exhausted',
          'The invite was sent less than a minute ago',
          'The invitation was sent less than a minute ago. Wait a moment before sending it again.',
        );
      }
      await q.query('UPDATE organization_invites SET last_sent_at = now() WHERE id = $1', [invite.id]);
      await recordAudit(q, {
        organizationId: d.organizationId,
        actorId: caller.uid,
        action: 'organization.invite.resend',
        entity: 'invite',
        entityId: invite.id,
        after: { email: invite.email, type: invite.type },
      });
      return invite.id;
    },
    // Mailed after the commit, like the first invite; the same link (the token is the invite's).
    afterCommit: async (_caller, inviteId) => {
      await invites.sendInvite(inviteId);
      return null;
    },
  });

  const cancel = defineCallable({
    name: 'organizations-cancelInvite',
    data: OrganizationInviteRefData,
    authorize: async ({ caller, q }, d) => {
      await authorizeOrganization(q, caller.uid, 'organizations.manage', d.organizationId);
    },
    action: async ({ caller, q }, d) => {
      const invite = await lockOpenInvite(q, d.organizationId, d.inviteId);
      // Gone for good: its mailed link no longer joins anyone, and the address may be invited afresh.
      await q.query('DELETE FROM organization_invites WHERE id = $1', [invite.id]);
      await recordAudit(q, {
        organizationId: d.organizationId,
        actorId: caller.uid,
        action: 'organization.invite.cancel',
        entity: 'invite',
        entityId: invite.id,
        before: { email: invite.email, type: invite.type },
      });
      return null;
    },
  });

  return [resend, cancel];
}
