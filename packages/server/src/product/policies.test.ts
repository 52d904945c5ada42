import { describe, expect, it } from 'vitest';
import type { OrganizationUserType } from '@caseroom/protocol';
import { renderPermissionTable } from './permissions.js';
import {
  PERMISSIONS,
  positionsOf,
  type Position,
  canListOrganizationCaseplans,
  canReadCaseplan,
  canReadOrganization,
  canSeeField,
  canSeeOrganizationPeople,
  isOrgAdmin,
  type CaseplanFacts,
  type Viewer,
} from './policies.js';

const ORG = 'org-1';
const OTHER = 'org-2';

function viewer(
  uid: string,
  type: OrganizationUserType | null | 'none',
  active = true,
  sadmin = false,
): Viewer {
  const organizations = new Map(type === 'none' ? [] : [[ORG, { type, active }]]);
  return { uid, sadmin, organizations };
}

const caseplan: CaseplanFacts = {
  organization: ORG,
  createdBy: 'creator',
  users: { onit: { active: true }, leftit: { active: false } },
};

describe('isOrgAdmin (product-spec §5)', () => {
  it.each([
    ['type admin, active', viewer('u', 'admin'), true],
    ['active without a user entry', viewer('u', null), true],
    ['type admin, inactive', viewer('u', 'admin', false), false],
    ['member', viewer('u', 'member'), false],
    ['client', viewer('u', 'client'), false],
    ['guest', viewer('u', 'guest'), false],
    ['no membership', viewer('u', 'none'), false],
    ['super-admin without membership', viewer('u', 'none', true, true), false],
  ])('%s -> %s', (_label, v, expected) => {
    expect(isOrgAdmin(v, ORG)).toBe(expected);
    expect(isOrgAdmin(v, OTHER)).toBe(false);
  });
});

describe('canReadCaseplan', () => {
  it.each([
    ['active user on it (member)', viewer('onit', 'member'), true],
    ['active user on it (client)', viewer('onit', 'client'), true],
    ['inactive user on it', viewer('leftit', 'member'), false],
    ['org admin not on it', viewer('boss', 'admin'), true],
    ['inactive org admin', viewer('boss', 'admin', false), false],
    ['org member not on it', viewer('other', 'member'), false],
    ['client of the org not on it', viewer('other', 'client'), false],
    ['creator, active in org', viewer('creator', 'member'), true],
    ['creator, no longer in org', viewer('creator', 'member', false), false],
    ['stranger', viewer('stranger', 'none'), false],
    ['super-admin stranger', viewer('stranger', 'none', true, true), false],
  ])('%s -> %s', (_label, v, expected) => {
    expect(canReadCaseplan(v, caseplan)).toBe(expected);
  });

  it('membership in another organization grants nothing', () => {
    const v: Viewer = {
      uid: 'x',
      sadmin: false,
      organizations: new Map([[OTHER, { type: 'admin', active: true }]]),
    };
    expect(canReadCaseplan(v, caseplan)).toBe(false);
  });
});

describe('canSeeField (x-visibility)', () => {
  const plan: CaseplanFacts = {
    organization: ORG,
    createdBy: 'creator',
    users: {
      worker: { active: true },
      client: { active: true, client: true },
      guest: { active: true },
      memberAsClient: { active: true, client: true },
    },
  };
  // [label, viewer, staff field on the plan, staff field in the settings documents]
  it.each([
    ['org admin (not on the plan)', viewer('boss', 'admin'), true, true],
    ['active without a user entry (admin)', viewer('boss', null), true, true],
    ['team member on the plan', viewer('worker', 'member'), true, true],
    ['team member off the plan', viewer('other', 'member'), true, true],
    ['creator', viewer('creator', 'member'), true, true],
    ['client on the plan', viewer('client', 'client'), false, false],
    ['guest on the plan', viewer('guest', 'guest'), false, false],
    ['client of the org off the plan', viewer('other', 'client'), false, false],
    ['member holding a client role on the plan', viewer('memberAsClient', 'member'), false, true],
    ['inactive admin', viewer('boss', 'admin', false), false, false],
    ['stranger', viewer('stranger', 'none'), false, false],
    ['super-admin', viewer('root', 'none', true, true), true, true],
  ])('%s: plan %s, settings %s', (_label, v, onPlan, inSettings) => {
    expect(canSeeField(v, ORG, 'staff', plan)).toBe(onPlan);
    expect(canSeeField(v, ORG, 'staff')).toBe(inSettings);
    // Fields for everyone are everyone's who may read the document (the read itself is checked elsewhere).
    expect(canSeeField(v, ORG, 'everyone', plan)).toBe(true);
  });
});

describe('organization reads', () => {
  it.each([
    ['admin', viewer('u', 'admin'), true, true, true],
    ['member', viewer('u', 'member'), true, true, true],
    ['client', viewer('u', 'client'), true, false, true],
    ['guest', viewer('u', 'guest'), true, false, true],
    ['inactive member', viewer('u', 'member', false), false, false, false],
    ['stranger', viewer('u', 'none'), false, false, false],
    ['super-admin', viewer('u', 'none', true, true), true, true, false],
  ])('%s: read %s, people %s, list case plans %s', (_l, v, read, people, list) => {
    expect(canReadOrganization(v, ORG)).toBe(read);
    expect(canSeeOrganizationPeople(v, ORG)).toBe(people);
    expect(canListOrganizationCaseplans(v, ORG)).toBe(list);
  });
});

describe('the permission table', () => {
  it('lets everyone who edits a case plan see its staff-only fields (a staff edit never works blind)', () => {
    const editors: readonly Position[] = PERMISSIONS['caseplans.edit'].allow;
    const staff: readonly Position[] = PERMISSIONS['fields.staffOnly'].allow;
    for (const p of editors) expect(staff).toContain(p);
    for (const p of ['client', 'guest', 'clientOffCaseplan'] as const) expect(staff).not.toContain(p);
  });

  it('is the table docs/permissions.md shows', async () => {
    const fs = await import('node:fs/promises');
    const doc = await fs.readFile(new URL('../../../../docs/permissions.md', import.meta.url), 'utf8');
    const shown = /<!-- permissions:begin -->\n([\s\S]*?)\n<!-- permissions:end -->/.exec(doc)?.[1];
    expect(shown?.trim()).toBe(renderPermissionTable());
  });

  it('never allows anonymous or another organization, and keeps organization rows coherent', () => {
    for (const [name, op] of Object.entries(PERMISSIONS)) {
      const allow: readonly Position[] = op.allow;
      expect(allow, name).not.toContain('anonymous');
      expect(allow, name).not.toContain('otherOrganization');
      if (op.scope === 'organization') {
        // Without a case plan a team member is `teamOffCaseplan`, a client `client`: the columns agree.
        expect(allow.includes('teamOnCaseplan'), name).toBe(allow.includes('teamOffCaseplan'));
        expect(allow.includes('client'), name).toBe(allow.includes('clientOffCaseplan'));
        expect(allow.includes('guest'), name).toBe(allow.includes('clientOffCaseplan'));
      }
    }
  });

  it('gives the positions the table speaks of', () => {
    const admin = viewer('onit', 'admin');
    expect(positionsOf(admin, ORG, caseplan)).toEqual(['orgAdmin', 'teamOnCaseplan']);
    expect(positionsOf(viewer('onit', 'guest'), ORG, caseplan)).toEqual(['guest']);
    expect(positionsOf(viewer('x', 'client'), ORG, caseplan)).toEqual(['clientOffCaseplan']);
    expect(positionsOf(viewer('x', 'none', true, true), ORG, caseplan)).toEqual(['superAdmin']);
    expect(positionsOf(viewer('x', 'none'), ORG)).toEqual(['otherOrganization']);
    expect(positionsOf(viewer('x', 'member'), ORG)).toEqual(['teamOffCaseplan']);
  });
});
