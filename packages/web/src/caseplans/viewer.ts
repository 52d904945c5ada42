import type { Caseplan, Organization } from '@caseroom/protocol';

/**
 * Whether `uid` administers the organization (product-spec §5): active in it with type admin, or active with
 * no user entry. The server decides every call; this only chooses which controls to show.
 */
export function isOrgAdminOf(org: Organization | undefined, uid: string | null): boolean {
  if (!org || !uid || !org.activeUsers.includes(uid)) return false;
  return (org.users[uid]?.type ?? 'admin') === 'admin';
}

/**
 * Whether `uid` may edit the plan (docs/permissions.md `caseplans.edit`): an organization admin, or a team
 * member (organization type member) active on the plan.
 */
export function canEditCaseplan(plan: Caseplan, org: Organization | undefined, uid: string | null): boolean {
  if (!uid) return false;
  if (isOrgAdminOf(org, uid)) return true;
  return plan.users[uid]?.active === true && org?.users[uid]?.type === 'member';
}
