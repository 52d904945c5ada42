import type { ChannelMember } from '@caseroom/protocol';
import { describe, expect, it } from 'vitest';
import { participantsOf, previewParticipants, roleBadge, roleOf } from './participants';

const TEAM = 'org1';
function member(
  id: string,
  name: string,
  extra: { clientOf?: string[]; guestOf?: string[] } = {},
): ChannelMember {
  return {
    user_id: id,
    user: { id, name, ...extra },
    channel_role: 'channel_member',
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
  };
}

describe('roleOf (product-spec §6)', () => {
  it('is client when clientOf holds the team, guest when guestOf does, else member', () => {
    expect(roleOf({ clientOf: [TEAM] }, TEAM)).toBe('client');
    expect(roleOf({ guestOf: [TEAM] }, TEAM)).toBe('guest');
    expect(roleOf({ clientOf: ['other'], guestOf: ['other'] }, TEAM)).toBe('member');
    expect(roleOf({ clientOf: [TEAM] }, undefined)).toBe('member');
  });
});

describe('participantsOf', () => {
  it('leaves out the viewer and sorts clients, guests, then by name', () => {
    const members = [
      member('me', 'Maria Lopez'),
      member('z', 'Zed Team'),
      member('g', 'Gary Ford', { guestOf: [TEAM] }),
      member('a', 'Abe Team'),
      member('c', 'Chloe Bennett', { clientOf: [TEAM] }),
    ];
    const list = participantsOf({ team: TEAM }, members, 'me');
    expect(list.map((p) => [p.firstName, p.role])).toEqual([
      ['Chloe', 'client'],
      ['Gary', 'guest'],
      ['Abe', 'member'],
      ['Zed', 'member'],
    ]);
  });

  it('shows three, then how many more', () => {
    const members = ['A', 'B', 'C', 'D', 'E'].map((n) => member(n, n));
    const { shown, more } = previewParticipants(participantsOf({ team: TEAM }, members, 'x'));
    expect(shown.map((p) => p.name)).toEqual(['A', 'B', 'C']);
    expect(more).toBe(2);
  });
});

describe('roleBadge (product-spec §2)', () => {
  const client = { clientOf: [TEAM] };
  const staff = {};
  const channel = (hasClient: boolean, hasGuest: boolean) => ({ team: TEAM, hasClient, hasGuest });

  it('for a non-client viewer: only Guest, and only with a guest', () => {
    expect(roleBadge(channel(true, true), staff)).toBe('guest');
    expect(roleBadge(channel(false, true), staff)).toBe('guest');
    expect(roleBadge(channel(true, false), staff)).toBeUndefined();
    expect(roleBadge(channel(false, false), { guestOf: [TEAM] })).toBeUndefined();
  });

  it('for a client viewer: Client & Guest, Guest or Client from hasClient and hasGuest', () => {
    expect(roleBadge(channel(true, true), client)).toBe('clientAndGuest');
    expect(roleBadge(channel(false, true), client)).toBe('guest');
    expect(roleBadge(channel(true, false), client)).toBe('client');
    expect(roleBadge(channel(false, false), client)).toBeUndefined();
  });
});
