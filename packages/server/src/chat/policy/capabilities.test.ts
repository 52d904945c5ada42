import { describe, expect, it } from 'vitest';
import type { ChannelRow, MemberRow } from '../store/rows.js';
import type { PermissionRule } from '@caseroom/protocol';
import { canReadChannel, ownCapabilities } from './capabilities.js';
import { BUILT_IN_RULES } from './rules.js';

const now = new Date('2026-01-01T00:00:00Z');
const channel = (over: Partial<ChannelRow> = {}): ChannelRow => ({
  cid: 'messaging:c',
  type: 'messaging',
  id: 'c',
  team: null,
  name: null,
  custom: {},
  frozen: false,
  disabled: false,
  cooldown: 0,
  member_hash: null,
  created_by_id: null,
  created_at: now,
  updated_at: now,
  last_message_at: null,
  truncated_at: null,
  deleted_at: null,
  unread_seq: 0,
  last_seq: 0,
  member_count: 2,
  config: {},
  ...over,
});
const member = (over: Partial<MemberRow> = {}): MemberRow => ({
  cid: 'messaging:c',
  user_id: 'u',
  channel_role: 'channel_member',
  invited: false,
  invite_accepted_at: null,
  invite_rejected_at: null,
  banned: false,
  shadow_banned: false,
  last_read: now,
  last_read_message_id: null,
  unread_count: 0,
  last_delivered_at: null,
  hidden: false,
  muted: false,
  mute_expires: null,
  history_cleared_at: null,
  pinned_at: null,
  archived_at: null,
  created_at: now,
  updated_at: now,
  ...over,
});

describe('ownCapabilities', () => {
  it.each([
    [
      'member',
      'user',
      member(),
      ['send-message', 'send-reply', 'send-reaction', 'update-own-message'],
      ['update-any-message', 'update-channel'],
    ],
    [
      'owner',
      'user',
      member({ channel_role: 'owner' }),
      ['update-channel', 'update-channel-members', 'delete-channel'],
      ['delete-any-message', 'freeze-channel'],
    ],
    [
      'moderator',
      'user',
      member({ channel_role: 'channel_moderator' }),
      ['delete-any-message', 'freeze-channel', 'skip-slow-mode'],
      [],
    ],
    ['admin member', 'admin', member(), ['update-any-message', 'freeze-channel'], []],
    ['non-member', 'user', undefined, [], ['send-message', 'read-events']],
    ['non-member admin', 'admin', undefined, [], ['send-message']],
    ['banned member', 'user', member({ banned: true }), [], ['send-message']],
  ] as const)('%s', (_name, role, m, granted, denied) => {
    const caps = ownCapabilities(channel(), { role, member: m, rules: BUILT_IN_RULES });
    for (const c of granted) expect(caps).toContain(c);
    for (const c of denied) expect(caps).not.toContain(c);
  });

  it('frozen channels lose the send capabilities but keep reading', () => {
    const caps = ownCapabilities(channel({ frozen: true }), {
      role: 'user',
      member: member(),
      rules: BUILT_IN_RULES,
    });
    expect(caps).not.toContain('send-message');
    expect(caps).not.toContain('send-reaction');
    expect(caps).toContain('read-events');
  });

  it('slow mode shows for members and not for those who skip it', () => {
    expect(
      ownCapabilities(channel({ cooldown: 10 }), { role: 'user', member: member(), rules: BUILT_IN_RULES }),
    ).toContain('slow-mode');
    const mod = member({ channel_role: 'channel_moderator' });
    expect(
      ownCapabilities(channel({ cooldown: 10 }), { role: 'user', member: mod, rules: BUILT_IN_RULES }),
    ).not.toContain('slow-mode');
  });

  it('only members read a channel', () => {
    expect(canReadChannel({ member: undefined })).toBe(false);
    expect(canReadChannel({ member: member() })).toBe(true);
    expect(canReadChannel({ member: member({ banned: true }) })).toBe(false);
  });

  it('pending invitees read nothing until they accept', () => {
    expect(canReadChannel({ member: member({ invited: true }) })).toBe(false);
    expect(canReadChannel({ member: member({ invited: true, invite_accepted_at: now }) })).toBe(true);
  });
});

describe('permission rules', () => {
  const custom = (over: Partial<PermissionRule>): PermissionRule => ({
    id: 'x',
    name: 'x',
    action: 'Deny',
    owner: false,
    priority: 100,
    resources: ['send-links'],
    roles: ['channel_member'],
    channel_type: null,
    builtin: false,
    ...over,
  });
  const caps = (rules: PermissionRule[], m = member(), role = 'user', c = channel()) =>
    ownCapabilities(c, { role, member: m, rules: [...BUILT_IN_RULES, ...rules] });

  it('a higher-priority Deny removes a capability, a lower one does not', () => {
    expect(caps([custom({})])).not.toContain('send-links');
    expect(caps([custom({ priority: 10 })])).toContain('send-links');
  });

  it('Deny wins a tie; Allow all (999) still wins for admins', () => {
    expect(caps([custom({ priority: 50 })])).not.toContain('send-links');
    expect(caps([custom({ roles: ['*'], priority: 500 })], member(), 'admin')).toContain('send-links');
  });

  it('a rule for another channel type does not apply', () => {
    expect(caps([custom({ channel_type: 'team' })])).toContain('send-links');
    expect(caps([custom({ channel_type: 'messaging' })])).not.toContain('send-links');
  });

  it('owner rules apply only to the owner; custom roles grant through Allow rules', () => {
    const allowOwner = custom({ action: 'Allow', owner: true, roles: ['*'], resources: ['freeze-channel'] });
    expect(caps([allowOwner], member({ channel_role: 'owner' }))).toContain('freeze-channel');
    expect(caps([allowOwner])).not.toContain('freeze-channel');
    const helper = custom({ action: 'Allow', roles: ['helper'], resources: ['pin-message', 'send-message'] });
    expect(caps([helper], member({ channel_role: 'helper' }))).toEqual(['send-message', 'pin-message']);
  });

  it('with no rule but Deny all, nothing is granted', () => {
    expect(ownCapabilities(channel(), { role: 'user', member: member(), rules: [] })).toEqual([]);
  });

  it('type settings switch capabilities off', () => {
    const c = channel({ config: { typing_events: false, reactions: false, replies: false } });
    const list = caps([], member(), 'user', c);
    expect(list).not.toContain('typing-events');
    expect(list).not.toContain('send-reaction');
    expect(list).not.toContain('send-reply');
    expect(list).toContain('send-message');
  });
});
