import { describe, expect, it } from 'vitest';
import type { MessageSets } from '@caseroom/sdk';
import { newOwnSend } from './followSend';

function set(messages: { id: string; user: string; status: string; parent_id?: string }[], isLatest = true) {
  return {
    isLatest,
    isCurrent: isLatest,
    hasPrev: false,
    hasNext: false,
    messages: messages.map((m) => ({ ...m, user: { id: m.user }, created_at: '2026-01-01T00:00:00Z' })),
  };
}

describe('newOwnSend', () => {
  it('answers the viewer’s newest sending message in the latest set, once', () => {
    const sets = [
      set([{ id: 'a', user: 'bob', status: 'received' }]),
      set([{ id: 'm', user: 'amy', status: 'sending' }]),
    ];
    (sets[0] as { isLatest: boolean }).isLatest = false;
    expect(newOwnSend(sets as unknown as MessageSets, 'amy', new Set())).toBe('m');
    expect(newOwnSend(sets as unknown as MessageSets, 'amy', new Set(['m']))).toBeUndefined();
  });

  it('ignores others’ messages, received ones and thread replies', () => {
    const of = (m: { id: string; user: string; status: string; parent_id?: string }) =>
      newOwnSend([set([m])] as unknown as MessageSets, 'amy', new Set());
    expect(of({ id: 'x', user: 'bob', status: 'sending' })).toBeUndefined();
    expect(of({ id: 'x', user: 'amy', status: 'received' })).toBeUndefined();
    expect(of({ id: 'x', user: 'amy', status: 'sending', parent_id: 'p' })).toBeUndefined();
  });
});
