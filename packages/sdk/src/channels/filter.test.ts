import { describe, expect, it } from 'vitest';
import type { Channel, ChannelMember } from '@caseroom/protocol';
import { matchesFilter } from './filter.js';

const channel = {
  id: 'c1',
  type: 'messaging',
  cid: 'messaging:c1',
  team: 'org1',
  caseplans: ['cp1', 'cp2'],
  hasClient: true,
  member_count: 2,
} as unknown as Channel;
const members = ['amy', 'bob'].map((user_id) => ({ user_id }) as ChannelMember);
const subject = { channel, members };

describe('matchesFilter', () => {
  it('matches members $in by member ids', () => {
    expect(matchesFilter({ members: { $in: ['amy'] } }, subject)).toBe(true);
    expect(matchesFilter({ members: { $in: ['zed'] } }, subject)).toBe(false);
  });

  it('matches plain equality, array fields and $and/$or', () => {
    expect(matchesFilter({ type: 'messaging', team: 'org1' }, subject)).toBe(true);
    expect(matchesFilter({ caseplans: 'cp2' }, subject)).toBe(true);
    expect(matchesFilter({ $or: [{ team: 'x' }, { hasClient: true }] }, subject)).toBe(true);
    expect(matchesFilter({ $and: [{ team: 'org1' }, { hasClient: false }] }, subject)).toBe(false);
    expect(matchesFilter({ caseplans: { $in: ['cp9', 'cp1'] } }, subject)).toBe(true);
    expect(matchesFilter({ hasGuest: { $exists: false } }, subject)).toBe(true);
    expect(matchesFilter({ member_count: { $gte: 2 } }, subject)).toBe(true);
  });

  it('does not match unknown operators', () => {
    expect(matchesFilter({ name: { $autocomplete: 'x' } }, subject)).toBe(false);
  });
});
