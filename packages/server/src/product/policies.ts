/**
 * Who may read what: one function per question, on plain facts, used by every route and (later) every event
 * audience. The table of decisions is tested in `policies.test.ts`.
 *
 * Decisions the spec leaves open (product-spec §6 "server-side enforcement ... not shown"):
 * - An inactive organization membership grants nothing, whatever its type.
 * - Organization admin (product-spec §5): active, and type `admin` or no type at all ("active with no user
 *   entry").
 * - A case plan is readable by its active users, by admins of its organization, and by its creator while
 *   they are active in the organization (product-spec §6 "active membership or creator").
 * - Organization staff (admins and members) see the organization's people; clients and guests see only their
 *   own entry, so a client cannot enumerate the organization's clients.
 * - Super-admin (`sadmin`) may read every organization; case plan content stays with the people on it and the
 *   organization's admins.
 * - Staff-only custom fields (`"x-visibility": "staff"`): staff are the organization's admins and team members
 *   (on or off the plan) and super-admins; clients and guests are not, and neither is a team member who holds a
 *   client role on that plan (they are the client there). See {@link canSeeField}.
 */
import type {
  CaseplanAbilities,
  FieldVisibility,
  OrganizationAbilities,
  OrganizationUserType,
} from '@caseroom/protocol';
import { allows, type OperationName, type Position } from './permissions.js';

export { PERMISSIONS, POSITIONS, allows, type OperationName, type Position } from './permissions.js';

/** A person's membership in one organization. `type` null = active without a user entry. */
export interface Membership {
  type: OrganizationUserType | null;
  active: boolean;
}

/** The facts about the caller that policies look at. */
export interface Viewer {
  uid: string;
  sadmin: boolean;
  /** Memberships by organization id. */
  organizations: ReadonlyMap<string, Membership>;
}

/** The facts about a case plan that policies look at. */
export interface CaseplanFacts {
  organization: string;
  createdBy: string;
  /** People on the plan; `client` is the role's client flag (roleData.client). */
  users: Readonly<Record<string, { active: boolean; client?: boolean }>>;
}

function activeMembership(viewer: Viewer, organizationId: string): Membership | undefined {
  const m = viewer.organizations.get(organizationId);
  return m?.active ? m : undefined;
}

/** Active in the organization, with any type. */
export function isOrgUser(viewer: Viewer, organizationId: string): boolean {
  return activeMembership(viewer, organizationId) !== undefined;
}

/** Organization admin: active, with type `admin` or without a user entry (product-spec §5). */
export function isOrgAdmin(viewer: Viewer, organizationId: string): boolean {
  const m = activeMembership(viewer, organizationId);
  return m !== undefined && (m.type === 'admin' || m.type === null);
}

/** Organization staff: admins and team members (not clients or guests). */
export function isOrgStaff(viewer: Viewer, organizationId: string): boolean {
  const m = activeMembership(viewer, organizationId);
  return m !== undefined && (m.type === 'admin' || m.type === 'member' || m.type === null);
}

/**
 * The positions of the viewer relative to an organization and, for case-plan operations, one case plan
 * (see `permissions.ts`). Several may apply (an org admin active on the plan is both `orgAdmin` and
 * `teamOnCaseplan`); an operation is allowed when any of them is.
 */
export function positionsOf(viewer: Viewer, organizationId: string, caseplan?: CaseplanFacts): Position[] {
  const positions: Position[] = [];
  if (viewer.sadmin) positions.push('superAdmin');
  const m = activeMembership(viewer, organizationId);
  if (!m) return positions.length ? positions : ['otherOrganization'];
  if (m.type === 'admin' || m.type === null) positions.push('orgAdmin');
  const staff = m.type !== 'client' && m.type !== 'guest';
  if (!caseplan) {
    positions.push(staff ? 'teamOffCaseplan' : m.type === 'guest' ? 'guest' : 'client');
    return positions;
  }
  if (caseplan.organization !== organizationId) return positions;
  const entry = caseplan.users[viewer.uid];
  if (entry?.active) {
    if (m.type === 'guest') positions.push('guest');
    else if (entry.client || m.type === 'client') positions.push('client');
    else positions.push('teamOnCaseplan');
  } else if (staff && caseplan.createdBy === viewer.uid) {
    positions.push('teamOnCaseplan');
  } else {
    positions.push(staff ? 'teamOffCaseplan' : 'clientOffCaseplan');
  }
  return positions;
}

/** Whether the viewer may perform an organization-scoped operation. */
export function canInOrganization(viewer: Viewer, op: OperationName, organizationId: string): boolean {
  return allows(op, positionsOf(viewer, organizationId));
}

/** Whether the viewer may perform a case-plan-scoped operation on this case plan. */
export function canOnCaseplan(viewer: Viewer, op: OperationName, caseplan: CaseplanFacts): boolean {
  return allows(op, positionsOf(viewer, caseplan.organization, caseplan));
}

export function canReadOrganization(viewer: Viewer, organizationId: string): boolean {
  return canInOrganization(viewer, 'organizations.read', organizationId);
}

/** Whether the organization's full people list (and their types) is visible to the viewer. */
export function canSeeOrganizationPeople(viewer: Viewer, organizationId: string): boolean {
  return viewer.sadmin || isOrgStaff(viewer, organizationId);
}

/** Whether the viewer may list case plans by this organization (`GET /api/caseplans?organization=`). */
export function canListOrganizationCaseplans(viewer: Viewer, organizationId: string): boolean {
  return canInOrganization(viewer, 'caseplans.list', organizationId);
}

export function canReadCaseplan(viewer: Viewer, caseplan: CaseplanFacts): boolean {
  return canOnCaseplan(viewer, 'caseplans.read', caseplan);
}

/** The viewer's abilities on a case plan, as answers carry them (`policies`, Outline's model). */
export function caseplanAbilities(viewer: Viewer, caseplan: CaseplanFacts): CaseplanAbilities {
  const positions = positionsOf(viewer, caseplan.organization, caseplan);
  return {
    read: allows('caseplans.read', positions),
    edit: allows('caseplans.edit', positions),
    close: allows('caseplans.close', positions),
    stats: allows('caseplans.stats', positions),
    participate: allows('caseplans.participate', positions),
  };
}

/** The viewer's abilities in an organization, as answers carry them. */
export function organizationAbilities(viewer: Viewer, organizationId: string): OrganizationAbilities {
  const positions = positionsOf(viewer, organizationId);
  return {
    read: allows('organizations.read', positions),
    manage: allows('organizations.manage', positions),
    audit: allows('organizations.audit', positions),
    readSettings: allows('settings.read', positions),
    writeSettings: allows('settings.write', positions),
    listCaseplans: allows('caseplans.list', positions),
    createCaseplan: allows('caseplans.create', positions),
    analytics: allows('organizations.analytics', positions),
  };
}

/**
 * Whether the viewer may see a custom field of this visibility: a field for `everyone` is shown to whoever may read
 * its document; a `staff` field only to staff (`fields.staffOnly` in the permission table). With `caseplan`, the
 * viewer's place on that plan counts (a client role there makes them a client); without, their organization
 * membership (the settings documents). The one rule behind every presenter of custom fields.
 */
export function canSeeField(
  viewer: Viewer,
  organizationId: string,
  visibility: FieldVisibility,
  caseplan?: CaseplanFacts,
): boolean {
  if (visibility === 'everyone') return true;
  return allows('fields.staffOnly', positionsOf(viewer, organizationId, caseplan));
}

/** What the account may do outside any organization. */
export function accountAbilities(viewer: Pick<Viewer, 'sadmin'>): { createOrganization: boolean } {
  return { createOrganization: allows('organizations.create', viewer.sadmin ? ['superAdmin'] : []) };
}
