/**
 * The permission table: who may make each call and read, by position. `docs/permissions.md` shows this table
 * (a test keeps them equal), `policies.ts` decides from it, and `test/authz-matrix.test.ts` runs every cell
 * against a real server.
 */

/** Where a person stands relative to an organization (and, for case-plan operations, one case plan). */
export const POSITIONS = [
  'superAdmin',
  'orgAdmin',
  'teamOnCaseplan',
  'teamOffCaseplan',
  'client',
  'guest',
  'clientOffCaseplan',
  'otherOrganization',
  'anonymous',
] as const;
export type Position = (typeof POSITIONS)[number];

/** What a position means, for the docs. */
export const POSITION_LABELS: Record<Position, string> = {
  superAdmin: 'super-admin (claim `sadmin`, not in the organization)',
  orgAdmin: 'organization admin (type `admin`, or active with no type), not on the case plan',
  teamOnCaseplan: 'team member (type `member`) active on the case plan (or its creator)',
  teamOffCaseplan: 'team member of the organization, not on the case plan',
  client: 'client on the case plan (role `client`, or organization type `client`)',
  guest: 'guest on the case plan (organization type `guest`)',
  clientOffCaseplan: 'client or guest of the organization, not on the case plan',
  otherOrganization: 'user of another organization (or an inactive member)',
  anonymous: 'not signed in',
};

/** Short column headers for the table. */
export const POSITION_HEADERS: Record<Position, string> = {
  superAdmin: 'super-admin',
  orgAdmin: 'org admin',
  teamOnCaseplan: 'team on plan',
  teamOffCaseplan: 'team off plan',
  client: 'client',
  guest: 'guest',
  clientOffCaseplan: 'client/guest off plan',
  otherOrganization: 'other org',
  anonymous: 'anonymous',
};

/**
 * What an operation is scoped to: `organization` operations look at the caller's membership (a team member is
 * `teamOffCaseplan`, clients and guests are `client`/`guest`); `caseplan` operations also at the case plan.
 */
export type Scope = 'organization' | 'caseplan';

export interface Operation {
  scope: Scope;
  /** The callables (`POST /api/functions/{name}`) and reads governed by this row. */
  calls: readonly string[];
  /** Positions allowed; every other position is refused. */
  allow: readonly Position[];
  /** Why, for the docs. */
  note: string;
}

const ORG_PEOPLE = [
  'orgAdmin',
  'teamOnCaseplan',
  'teamOffCaseplan',
  'client',
  'guest',
  'clientOffCaseplan',
] as const;
const ON_PLAN = ['teamOnCaseplan', 'client', 'guest'] as const;
const PLAN_EDITORS = ['orgAdmin', 'teamOnCaseplan'] as const;
const PLAN_READERS = ['orgAdmin', ...ON_PLAN] as const;

/** The table. Keys name the operation in policies and tests. */
export const PERMISSIONS = {
  'organizations.create': {
    scope: 'organization',
    calls: ['organizations-create'],
    allow: ['superAdmin'],
    note: 'Creating an organization (and naming its first admin) is for super-admins only.',
  },
  'organizations.read': {
    scope: 'organization',
    calls: ['GET /api/organizations', 'session-selectOrganization'],
    allow: ['superAdmin', ...ORG_PEOPLE],
    note: 'Every active person of the organization; clients and guests see only their own entry in `users`.',
  },
  'organizations.manage': {
    scope: 'organization',
    calls: [
      'organizations-inviteUser',
      'organizations-removeUser',
      'organizations-setUserType',
      'organizations-resendInvite',
      'organizations-cancelInvite',
      'GET /api/organizations/{id}/members',
    ],
    allow: ['superAdmin', 'orgAdmin'],
    note: 'People and their types: organization admins, and super-admins (to seat the first admins).',
  },
  'organizations.audit': {
    scope: 'organization',
    calls: ['GET /api/organizations/{id}/audit'],
    allow: ['orgAdmin'],
    note: 'The audit log holds case-plan content (before/after), so only the organization admins read it.',
  },
  'organizations.analytics': {
    scope: 'organization',
    calls: ['GET /api/organizations/{id}/analytics'],
    allow: ['orgAdmin'],
    note: 'Chats opened and messages sent per week and case plan: for the organization admins who run the work.',
  },
  'analytics.chatOpened': {
    scope: 'caseplan',
    calls: ['POST /api/analytics/chat-opened'],
    allow: ON_PLAN,
    note: "Whoever may read the chat (chat's one read rule); the matrix's chat holds the plan's people.",
  },
  'settings.read': {
    scope: 'organization',
    calls: ['settings-get', 'GET /api/organizations/{id}/settings/{doc}'],
    allow: ORG_PEOPLE,
    note: 'Field schemas render the case-plan form for everyone in the organization.',
  },
  'settings.write': {
    scope: 'organization',
    calls: ['settings-set'],
    allow: ['orgAdmin'],
    note: 'Only organization admins change the field schemas.',
  },
  'caseplans.list': {
    scope: 'organization',
    calls: ['GET /api/caseplans?organization={id}', 'GET /api/caseplans/overview?organization={id}'],
    allow: ORG_PEOPLE,
    note:
      'Anyone in the organization may ask; the answer holds only the case plans they may read. The overview ' +
      '(case-plan home) adds staff facts per plan only where `caseplans.stats` allows them.',
  },
  'caseplans.create': {
    scope: 'organization',
    calls: ['caseplans-create'],
    allow: ['orgAdmin', 'teamOnCaseplan', 'teamOffCaseplan'],
    note: 'Staff (admins and team members) open case plans; a team member becomes a user of the plan.',
  },
  'caseplans.read': {
    scope: 'caseplan',
    calls: ['GET /api/caseplans/{id}', 'GET /api/caseplans/{id}/events'],
    allow: PLAN_READERS,
    note: 'The people active on the plan, and the organization admins who run it.',
  },
  'caseplans.stats': {
    scope: 'caseplan',
    calls: ['GET /api/caseplans/{id}/stats'],
    allow: PLAN_EDITORS,
    note: 'Who opened and wrote when is for staff, not for clients and guests.',
  },
  'caseplans.edit': {
    scope: 'caseplan',
    calls: [
      'caseplans-update',
      'caseplans-updateCustom',
      'caseplans-addUser',
      'caseplans-removeUser',
      'caseplans-addTeam',
      'caseplans-updateTeam',
      'caseplans-addRole',
      'caseplans-updateRole',
      'events-create',
      'events-update',
    ],
    allow: PLAN_EDITORS,
    note: 'Organization admins and the team members on the plan; clients and guests read but do not edit.',
  },
  'caseplans.close': {
    scope: 'caseplan',
    calls: ['caseplans-close', 'caseplans-reopen'],
    allow: ['orgAdmin'],
    note: 'Closing freezes the plan and its chats for everyone: an organization admin decision.',
  },
  'caseplans.participate': {
    scope: 'caseplan',
    calls: ['events-rsvp', 'session-selectCaseplan', 'chat-startChat'],
    allow: ON_PLAN,
    note: 'Answering invitations, opening the plan in the session and starting chats need a place on the plan.',
  },
  'fields.staffOnly': {
    scope: 'caseplan',
    calls: [],
    allow: ['superAdmin', 'orgAdmin', 'teamOnCaseplan', 'teamOffCaseplan'],
    note:
      'Custom fields marked `"x-visibility": "staff"`: their values (case plans) and definitions (settings) are ' +
      'left out of every answer to clients and guests. Not a call: `canSeeField` in `policies.ts` decides.',
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof PERMISSIONS;

/** Whether any of `positions` is allowed to perform `op`. */
export function allows(op: OperationName, positions: readonly Position[]): boolean {
  const allowed: readonly Position[] = PERMISSIONS[op].allow;
  return positions.some((p) => allowed.includes(p));
}

/** The table as Markdown (what `docs/permissions.md` shows between its markers). */
export function renderPermissionTable(): string {
  const cols = POSITIONS;
  const head = `| operation | calls and reads | ${cols.map((c) => POSITION_HEADERS[c]).join(' | ')} |`;
  const sep = `|---|---|${cols.map(() => ':-:').join('|')}|`;
  const rows = Object.entries(PERMISSIONS).map(([name, op]) => {
    const allowed: readonly Position[] = op.allow;
    const cells = cols.map((c) => (allowed.includes(c) ? 'yes' : '—'));
    return `| \`${name}\` | ${op.calls.map((c) => `\`${c}\``).join(', ')} | ${cells.join(' | ')} |`;
  });
  return [head, sep, ...rows].join('\n');
}
