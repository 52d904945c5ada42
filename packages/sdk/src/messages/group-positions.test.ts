import { describe, expect, it } from 'vitest';
import type { Message } from '@caseroom/protocol';
import { groupPositions } from './group-positions.js';

let n = 0;
const m = (
  user: string,
  extra: Partial<Message> = {},
  at = `2026-03-02T10:00:${String(n).padStart(2, '0')}Z`,
): Message =>
  ({
    id: `m${++n}`,
    type: 'regular',
    user: { id: user },
    user_id: user,
    text: 'x',
    attachments: [],
    reaction_counts: {},
    created_at: at,
    ...extra,
  }) as Message;
const positions = (messages: Message[], options = {}) =>
  Object.values(groupPositions(messages, { timezoneOffsetMinutes: 0, ...options }));

describe('groupPositions', () => {
  it('groups consecutive messages of one sender: top, middle, bottom; alone is single', () => {
    expect(positions([m('a'), m('a'), m('a'), m('b'), m('a')])).toEqual([
      'top',
      'middle',
      'bottom',
      'single',
      'single',
    ]);
  });

  it('splits on day change, system/error/deleted messages and the last-read boundary', () => {
    const first = m('a', {}, '2026-03-02T23:59:00Z');
    expect(positions([first, m('a', {}, '2026-03-03T00:01:00Z')])).toEqual(['single', 'single']);
    expect(positions([m('a'), m('a', { type: 'system' }), m('a')])).toEqual(['single', 'single', 'single']);
    expect(positions([m('a'), m('a', { type: 'deleted' })])).toEqual(['single', 'single']);
    const read = m('a');
    expect(positions([m('a'), read, m('a')], { lastReadMessageId: read.id })).toEqual([
      'top',
      'bottom',
      'single',
    ]);
  });

  it('attachments, reactions and edits close the group after the message', () => {
    expect(positions([m('a', { attachments: [{ type: 'image' }] }), m('a')])).toEqual(['single', 'single']);
    expect(positions([m('a'), m('a', { reaction_counts: { like: 1 } }), m('a')])).toEqual([
      'top',
      'bottom',
      'single',
    ]);
    expect(positions([m('a', { message_text_updated_at: '2026-03-02T10:05:00Z' }), m('a')])).toEqual([
      'single',
      'single',
    ]);
  });
});
