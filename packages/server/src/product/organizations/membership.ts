import type { OrganizationUserType } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { recordAudit } from '../audit/record.js';
import { ProductError } from '../errors.js';

export interface MemberSnapshot {
  type: OrganizationUserType | null;
  active: boolean;
}

/** The person's membership row, or null. */
export async function memberSnapshot(
  q: Queryable,
  organizationId: string,
  userId: string,
): Promise<MemberSnapshot | null> {
  const { rows } = await q.query<MemberSnapshot>(
    'SELECT type, active FROM organization_users WHERE organization_id = $1 AND user_id = $2',
    [organizationId, userId],
  );
  return rows[0] ?? null;
}

/** Adds (or reactivates with a new type) a membership. */
export async function upsertMember(
  q: Queryable,
  organizationId: string,
  userId: string,
  type: OrganizationUserType,
): Promise<void> {
  await q.query(
    `INSERT INTO organization_users (organization_id, user_id, type) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, user_id) DO UPDATE SET type = EXCLUDED.type, active = true, updated = now()`,
    [organizationId, userId, type],
  );
}

/**
 * Refuses a change that would leave the organization without an active admin (type `admin` or no type):
 * nobody could run it any more.
 */
export async function requireAnotherAdmin(
  q: Queryable,
  organizationId: string,
  userId: string,
): Promise<void> {
  const { rowCount } = await q.query(
    `SELECT 1 FROM organization_users
      WHERE organization_id = $1 AND user_id <> $2 AND active AND (type = 'admin' OR type IS NULL)`,
    [organizationId, userId],
  );
  if (rowCount === 0) {
    throw new ProductError('failed-precondition', 'An organization needs at least one admin');
  }
}

/**
 * Claims the open invites addressed to this account's e-mail, when the address is verified (so nobody joins an
 * organization by signing up with someone else's address), or, for the invite `provenInviteId`, when the
 * caller holds that invite's mailed token (which proves they read mail at the address). Answers the
 * organizations joined.
 */
export async function claimInvites(
  q: Queryable,
  uid: string,
  provenInviteId: string | null = null,
): Promise<string[]> {
  const { rows } = await q.query<{
    id: string;
    organization_id: string;
    type: OrganizationUserType;
    invited_by: string;
  }>(
    `SELECT i.id, i.organization_id, i.type, i.invited_by FROM organization_invites i
       JOIN "user" u ON lower(u.email) = lower(i.email)
      WHERE u.id = $1 AND (u."emailVerified" OR i.id = $2) AND i.accepted_at IS NULL
      ORDER BY i.created
      FOR UPDATE OF i`,
    [uid, provenInviteId],
  );
  const joined: string[] = [];
  for (const invite of rows) {
    const existing = await memberSnapshot(q, invite.organization_id, uid);
    if (!existing?.active) await upsertMember(q, invite.organization_id, uid, invite.type);
    await q.query('UPDATE organization_invites SET accepted_by = $2, accepted_at = now() WHERE id = $1', [
      invite.id,
      uid,
    ]);
    await recordAudit(q, {
      organizationId: invite.organization_id,
      actorId: uid,
      action: 'organization.invite.accept',
      entity: 'membership',
      entityId: uid,
      before: existing,
      after: await memberSnapshot(q, invite.organization_id, uid),
    });
    joined.push(invite.organization_id);
  }
  return joined;
}
