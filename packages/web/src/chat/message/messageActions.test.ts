import { CAPABILITIES } from '@caseroom/protocol';
import { describe, expect, it } from 'vitest';
import { availableActions, failureKind, type ActionContext } from './messageActions';

const ALL: ActionContext = { capabilities: [...CAPABILITIES], viewerId: 'me', mode: 'main', clipboard: true };
const msg = (extra: Record<string, unknown> = {}) => ({
  type: 'regular' as const,
  text: 'hello',
  user_id: 'other',
  status: 'received',
  ...extra,
});

describe('availableActions (chat-spec §6)', () => {
  it('offers everything with every capability, on someone else’s message', () => {
    expect(availableActions(msg(), ALL)).toEqual([
      'reply',
      'quote',
      'react',
      'edit',
      'delete',
      'pin',
      'flag',
      'markUnread',
      'copy',
    ]);
  });

  it('never flags or marks unread one’s own message; edit/delete own need the own capabilities', () => {
    const caps = ['update-own-message', 'delete-own-message', 'flag-message', 'read-events'];
    expect(availableActions(msg({ user_id: 'me' }), { ...ALL, capabilities: caps })).toEqual([
      'edit',
      'delete',
      'copy',
    ]);
    expect(availableActions(msg(), { ...ALL, capabilities: caps })).toEqual(['flag', 'markUnread', 'copy']);
  });

  it('drops each action with its capability', () => {
    const without = (cap: string) =>
      availableActions(msg(), { ...ALL, capabilities: CAPABILITIES.filter((c) => c !== cap) });
    expect(without('send-reply')).not.toContain('reply');
    expect(without('quote-message')).not.toContain('quote');
    expect(without('send-reaction')).not.toContain('react');
    expect(without('pin-message')).not.toContain('pin');
    expect(without('flag-message')).not.toContain('flag');
    expect(without('read-events')).not.toContain('markUnread');
    expect(without('update-any-message')).not.toContain('edit');
    expect(without('delete-any-message')).not.toContain('delete');
  });

  it('has no reply or mark-unread in a thread, nor for a reply', () => {
    const inThread = availableActions(msg({ type: 'reply', parent_id: 'p' }), { ...ALL, mode: 'thread' });
    expect(inThread).not.toContain('reply');
    expect(inThread).not.toContain('markUnread');
    expect(inThread).toContain('copy');
  });

  it('copies only with a clipboard and text; nothing for deleted, system or unsent messages', () => {
    expect(availableActions(msg(), { ...ALL, clipboard: false })).not.toContain('copy');
    expect(availableActions(msg({ text: '  ' }), ALL)).not.toContain('copy');
    expect(availableActions(msg({ type: 'deleted' }), ALL)).toEqual([]);
    expect(availableActions(msg({ type: 'system' }), ALL)).toEqual([]);
    expect(availableActions(msg({ status: 'failed' }), ALL)).toEqual([]);
  });
});

describe('failureKind (chat-spec §4, §8)', () => {
  it('retries failures except 403', () => {
    expect(failureKind({ status: 'received' })).toBe('none');
    expect(failureKind({ status: 'failed', error: { status: 500 } })).toBe('retry');
    expect(failureKind({ status: 'failed', error: { status: 403 } })).toBe('unauthorized');
  });
});
