import type { Organization, OrganizationAbilities } from '@caseroom/protocol';
import { describe, expect, it } from 'vitest';
import { hasOrganizationAdmin } from './staffArea';

const none: OrganizationAbilities = {
  read: true,
  manage: false,
  audit: false,
  readSettings: true,
  writeSettings: false,
  listCaseplans: true,
  createCaseplan: false,
  analytics: false,
};
const org = (policies: Partial<OrganizationAbilities>): Organization => ({
  id: 'o',
  eid: null,
  name: 'Org',
  users: {},
  activeUsers: [],
  updated: '2026-11-24T00:00:00Z',
  policies: { ...none, ...policies },
});

describe('hasOrganizationAdmin', () => {
  it.each([
    ['no organization', [], false],
    ['a client or guest (reads only)', [org({})], false],
    ['a team member (creates case plans, nothing to administer)', [org({ createCaseplan: true })], false],
    ['an org admin', [org({ manage: true, audit: true, writeSettings: true, analytics: true })], true],
    ['a super-admin (manage)', [org({ manage: true })], true],
    ['analytics alone', [org({ analytics: true })], true],
    ['a client in one organization, admin in another', [org({}), org({ audit: true })], true],
  ])('%s -> %s', (_label, orgs, expected) => {
    expect(hasOrganizationAdmin(orgs)).toBe(expected);
  });
});
