import crypto from 'node:crypto';
import {
  OrganizationCreateData,
  OrganizationInviteUserData,
  OrganizationRemoveUserData,
  OrganizationSetUserTypeData,
} from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { recordAudit } from '../audit/record.js';
import { authorizeOrganization } from '../callables/authorize.js';
import type { CallableDeps } from '../callables/deps.js';
import { defineCallable } from '../callables/registry.js';
import { removeFromCaseplanChannels, syncChatUsers } from '../caseplans/chat-links.js';
import { ProductError } from '../errors.js';
import { allows } from '../policies.js';
import { findUserIdByEmail } from '../users/profiles.js';
import { createOrganization } from './create.js';
import { loadViewer } from './queries.js';
import { memberSnapshot, requireAnotherAdmin, upsertMember } from './membership.js';

async function inviteOrAdd(
  q: Queryable,
  actorId: string,
  organizationId: string,
  email: string,
  type: 'admin' | 'member' | 'client' | 'guest',
): Promise<{ userId: string | null; inviteId: string | null }> {
  const userId = await findUserIdByEmail(q, email);
  if (userId) {
    const before = await memberSnapshot(q, organizationId, userId);
    if (before?.active) throw new ProductError('already-exists', 'User is already part of the organization');
    await upsertMember(q, organizationId, userId, type);
    await recordAudit(q, {
      organizationId,
      actorId,
      action: 'organization.user.add',
      entity: 'membership',
      entityId: userId,
      before,
      after: await memberSnapshot(q, organizationId, userId),
    });
    return { userId, inviteId: null };
  }
  const inviteId = crypto.randomUUID();
  const { rowCount } = await q.query(
    `INSERT INTO organization_invites (id, organization_id, email, type, invited_by) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING`,
    [inviteId, organizationId, email.toLowerCase(), type, actorId],
  );
  if (rowCount === 0) throw new ProductError('already-exists', 'An invite for this address is already open');
  await recordAudit(q, {
    organizationId,
    actorId,
    action: 'organization.invite',
    entity: 'invite',
    entityId: inviteId,
    after: { email: email.toLowerCase(), type },
  });
  return { userId: null, inviteId };
}

/** Organizations and their people (issue 4 §2): create (super-admin), invite, remove, set type (org admin). */
export function organizationCallables({ invites }: CallableDeps) {
  const create = defineCallable({
    name: 'organizations-create',
    data: OrganizationCreateData,
    authorize: async ({ caller, q }) => {
      const viewer = await loadViewer(q, caller.uid);
      if (!allows('organizations.create', viewer.sadmin ? ['superAdmin'] : []))
        throw new ProductError('permission-denied', 'Only a super-admin may create organizations');
    },
    action: async ({ caller, q, chat }, d) => {
      const id = await createOrganization(q, caller.uid, d);
      const seated = d.adminEmail ? await inviteOrAdd(q, caller.uid, id, d.adminEmail, 'admin') : null;
      if (seated?.userId) await syncChatUsers(chat, q, [seated.userId]);
      return { id, seated };
    },
    // The invite mail goes once the invite is committed.
    afterCommit: async (_caller, { id, seated }) => {
      if (seated?.inviteId) await invites.sendInvite(seated.inviteId);
      return id;
    },
  });

  const inviteUser = defineCallable({
    name: 'organizations-inviteUser',
    data: OrganizationInviteUserData,
    authorize: async ({ caller, q }, d) => {
      await authorizeOrganization(q, caller.uid, 'organizations.manage', d.organizationId);
    },
    action: async ({ caller, q, chat }, d) => {
      const staged = await inviteOrAdd(q, caller.uid, d.organizationId, d.email, d.type);
      if (staged.userId) await syncChatUsers(chat, q, [staged.userId]);
      return staged;
    },
    afterCommit: async (_caller, staged) => {
      if (staged.inviteId) await invites.sendInvite(staged.inviteId);
      return staged;
    },
  });

  const removeUser = defineCallable({
    name: 'organizations-removeUser',
    data: OrganizationRemoveUserData,
    authorize: async ({ caller, q }, d) => {
      await authorizeOrganization(q, caller.uid, 'organizations.manage', d.organizationId);
    },
    action: async ({ caller, q, chat }, d) => {
      const before = await memberSnapshot(q, d.organizationId, d.userId);
      if (!before?.active) throw new ProductError('not-found', 'User is not part of the organization');
      await requireAnotherAdmin(q, d.organizationId, d.userId);
      await q.query(
        'UPDATE organization_users SET active = false, updated = now() WHERE organization_id = $1 AND user_id = $2',
        [d.organizationId, d.userId],
      );
      // Leaving the organization means leaving its case plans and their chats, in this transaction.
      const { rows } = await q.query<{ caseplan_id: string }>(
        `UPDATE caseplan_users cu SET active = false, updated = now()
           FROM caseplans c
          WHERE c.id = cu.caseplan_id AND c.organization_id = $1 AND cu.user_id = $2 AND cu.active
         RETURNING cu.caseplan_id`,
        [d.organizationId, d.userId],
      );
      await q.query(
        `UPDATE roles r SET user_id = NULL FROM caseplans c
          WHERE c.id = r.caseplan_id AND c.organization_id = $1 AND r.user_id = $2`,
        [d.organizationId, d.userId],
      );
      await recordAudit(q, {
        organizationId: d.organizationId,
        actorId: caller.uid,
        action: 'organization.user.remove',
        entity: 'membership',
        entityId: d.userId,
        before,
        after: {
          ...(await memberSnapshot(q, d.organizationId, d.userId)),
          caseplansLeft: rows.map((r) => r.caseplan_id),
        },
      });
      for (const r of rows) await removeFromCaseplanChannels(chat, q, r.caseplan_id, d.userId);
      await syncChatUsers(chat, q, [d.userId]);
      return null;
    },
  });

  const setUserType = defineCallable({
    name: 'organizations-setUserType',
    data: OrganizationSetUserTypeData,
    authorize: async ({ caller, q }, d) => {
      await authorizeOrganization(q, caller.uid, 'organizations.manage', d.organizationId);
    },
    action: async ({ caller, q, chat }, d) => {
      const before = await memberSnapshot(q, d.organizationId, d.userId);
      if (!before?.active) throw new ProductError('not-found', 'User is not part of the organization');
      if (d.type !== 'admin') await requireAnotherAdmin(q, d.organizationId, d.userId);
      await upsertMember(q, d.organizationId, d.userId, d.type);
      await recordAudit(q, {
        organizationId: d.organizationId,
        actorId: caller.uid,
        action: 'organization.user.setType',
        entity: 'membership',
        entityId: d.userId,
        before,
        after: await memberSnapshot(q, d.organizationId, d.userId),
      });
      // clientOf / guestOf follow the type.
      await syncChatUsers(chat, q, [d.userId]);
      return null;
    },
  });

  return [create, inviteUser, removeUser, setUserType];
}
