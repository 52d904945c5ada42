import { DEFAULT_CHANNEL_TYPE_SETTINGS, type Channel, type ChannelMember } from '@caseroom/protocol';
import { describe, expect, it } from 'vitest';
import { channelCaseplans, channelPreview, channelTitle, groupByCaseplan } from './channelInfo';

function channel(extra: Partial<Channel> & Record<string, unknown> = {}): Channel {
  return {
    id: 'c1',
    type: 'messaging',
    cid: 'messaging:c1',
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    member_count: 2,
    frozen: false,
    config: {
      ...DEFAULT_CHANNEL_TYPE_SETTINGS,
      name: 'messaging',
      commands: [],
      url_enrichment: false,
    },
    own_capabilities: ['send-message'],
    ...extra,
  };
}

function member(id: string, name?: string): ChannelMember {
  return {
    user_id: id,
    user: name ? { id, name } : undefined,
    channel_role: 'channel_member',
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
  };
}

describe('channelCaseplans', () => {
  it('reads string ids and ignores anything else', () => {
    expect(channelCaseplans(channel({ caseplans: ['a', 3, 'b'] }))).toEqual(['a', 'b']);
    expect(channelCaseplans(channel({ caseplans: 'a' }))).toEqual([]);
    expect(channelCaseplans(undefined)).toEqual([]);
  });
});

describe('groupByCaseplan', () => {
  const a = { channel: channel({ id: 'a', caseplans: ['cp1'] }) };
  const b = { channel: channel({ id: 'b' }) };
  const c = { channel: channel({ id: 'c', caseplans: ['cp2', 'cp1'] }) };

  it('puts channels of the case plan first group, keeping order', () => {
    expect(groupByCaseplan([a, b, c], 'cp1')).toEqual({ inCaseplan: [a, c], other: [b] });
  });

  it('puts everything in other without a selected case plan', () => {
    expect(groupByCaseplan([a, b], null)).toEqual({ inCaseplan: [], other: [a, b] });
  });
});

describe('channelTitle', () => {
  const me = member('me', 'Maria');
  it('prefers the channel name', () => {
    expect(channelTitle(channel({ name: ' Team ' }), [me, member('x', 'X')], 'me', 'Chat')).toBe('Team');
  });

  it('lists the other members, then "+ N more"', () => {
    const others = ['Ann', 'Bob', 'Cid', 'Dan', 'Eve'].map((n) => member(n.toLowerCase(), n));
    expect(channelTitle(channel(), [me, others[0]!], 'me', 'Chat')).toBe('Ann');
    expect(channelTitle(channel(), [me, ...others], 'me', 'Chat')).toBe('Ann, Bob, Cid + 2 more');
  });

  it('falls back to the user id, then to the fallback', () => {
    expect(channelTitle(channel(), [me, member('u9')], 'me', 'Chat')).toBe('u9');
    expect(channelTitle(channel(), [me], 'me', 'Chat')).toBe('Chat');
  });
});

describe('channelPreview', () => {
  const labels = { none: 'No messages yet', deleted: 'This message was deleted' };
  it('shows the text, the deleted display for a deleted message, and the empty text without one', () => {
    expect(channelPreview({ type: 'regular', text: '  hi  ' }, labels)).toBe('hi');
    expect(channelPreview({ type: 'deleted', text: '' }, labels)).toBe('This message was deleted');
    const removed = {
      type: 'deleted',
      text: 'Message removed by a moderator',
      moderation_details: { action: 'removed' },
    };
    expect(channelPreview(removed, { ...labels, removed: 'Removed by a moderator' })).toBe(
      'Removed by a moderator',
    );
    expect(channelPreview(undefined, labels)).toBe('No messages yet');
  });
});
