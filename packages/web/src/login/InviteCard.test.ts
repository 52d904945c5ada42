import { describe, expect, it } from 'vitest';
import { inviteTokenOf } from './InviteCard';

describe('inviteTokenOf', () => {
  it('reads the token of a mailed link from inside redirectTo, or from ?invite=', () => {
    const mailed = new URLSearchParams({ redirectTo: '/app/organizations/org-1?invite=inv-1.mac_-x' });
    expect(inviteTokenOf(mailed)).toBe('inv-1.mac_-x');
    expect(inviteTokenOf(new URLSearchParams('invite=direct.mac'))).toBe('direct.mac');
  });

  it('finds none without one, and none in a redirect to another site', () => {
    expect(inviteTokenOf(new URLSearchParams())).toBeNull();
    expect(inviteTokenOf(new URLSearchParams({ redirectTo: '/app/caseplans' }))).toBeNull();
    expect(inviteTokenOf(new URLSearchParams({ redirectTo: 'https://evil.test/?invite=x.y' }))).toBeNull();
  });
});
