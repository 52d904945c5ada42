import { describe, expect, it } from 'vitest';
import type { ChannelRow, MemberRow } from '../store/rows.js';
import { canReadChannel, ownCapabilities } from './capabilities.js';

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
  member_count: 2,
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
    const caps = ownCapabilities(channel(), { role, member: m });
    for (const c of granted) expect(caps).toContain(c);
    for (const c of denied) expect(caps).not.toContain(c);
  });

  it('frozen channels lose the send capabilities but keep reading', () => {
    const caps = ownCapabilities(channel({ frozen: true }), { role: 'user', member: member() });
    expect(caps).not.toContain('send-message');
    expect(caps).not.toContain('send-reaction');
    expect(caps).toContain('read-events');
  });

  it('slow mode shows for members and not for those who skip it', () => {
    expect(ownCapabilities(channel({ cooldown: 10 }), { role: 'user', member: member() })).toContain(
      'slow-mode',
    );
    const mod = member({ channel_role: 'channel_moderator' });
    expect(ownCapabilities(channel({ cooldown: 10 }), { role: 'user', member: mod })).not.toContain(
      'slow-mode',
    );
  });

  it('only members read a channel', () => {
    expect(canReadChannel({ role: 'admin', member: undefined })).toBe(false);
    expect(canReadChannel({ role: 'user', member: member() })).toBe(true);
    expect(canReadChannel({ role: 'user', member: member({ banned: true }) })).toBe(false);
  });
});
