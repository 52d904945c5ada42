import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeliveryReporter } from './delivery-reporter.js';
import { readBy, readByNames, readByText } from './read-by.js';

describe('delivery reports (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('buffers 1 s, keeps the newest message per channel, sends at most 100 per batch', () => {
    const send = vi.fn(() => Promise.resolve());
    const reporter = new DeliveryReporter(send);
    for (let i = 0; i < 150; i += 1) reporter.delivered(`messaging:c${i}`, `m${i}`);
    reporter.delivered('messaging:c0', 'newer');
    vi.advanceTimersByTime(999);
    expect(send).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(send).toHaveBeenCalledTimes(2);
    const [first, second] = send.mock.calls as unknown as [{ cid: string; id: string }[]][];
    expect(first?.[0]).toHaveLength(100);
    expect(second?.[0]).toHaveLength(50);
    expect(second?.[0]?.at(-1)).toEqual({ cid: 'messaging:c0', id: 'newer' });
  });
});

describe('read-by', () => {
  const read = (id: string, at: string) => ({
    user: { id, name: id.toUpperCase() },
    last_read: at,
    unread_messages: 0,
  });

  it('lists others who read up to the message, never the author or me', () => {
    const message = { id: 'm', created_at: '2026-01-01T10:00:00Z', user: { id: 'amy' } };
    const state = {
      amy: read('amy', '2026-01-01T11:00:00Z'),
      me: read('me', '2026-01-01T11:00:00Z'),
      bob: read('bob', '2026-01-01T10:00:00Z'),
      cy: read('cy', '2026-01-01T09:00:00Z'),
    };
    expect(readBy(message, state, 'me').map((u) => u.id)).toEqual(['bob']);
  });

  it('shows at most 5 names then +N', () => {
    const users = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => ({ id, name: id.toUpperCase() }));
    expect(readByText(users)).toBe('A, B, C, D, E +2');
    expect(readByText(users.slice(0, 2))).toBe('A, B');
    expect(readByNames(users)).toEqual({ names: ['A', 'B', 'C', 'D', 'E'], rest: 2 });
  });
});
