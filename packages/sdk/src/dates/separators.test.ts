import { describe, expect, it } from 'vitest';
import { formatDateSeparator, formatMessageTime, localDayKey, withSeparators } from './separators.js';

describe('date and unread separators', () => {
  // A Wednesday, local time.
  const now = new Date(2026, 0, 14, 12, 0);
  const day = (d: number, h = 9) => new Date(2026, 0, d, h, 5).toISOString();

  it('labels days: Today, Yesterday, Tomorrow, weekday, Last weekday, MM/DD/YYYY', () => {
    expect(formatDateSeparator(day(14), now)).toBe('Today');
    expect(formatDateSeparator(day(13), now)).toBe('Yesterday');
    expect(formatDateSeparator(day(15), now)).toBe('Tomorrow');
    expect(formatDateSeparator(day(17), now)).toBe('Saturday');
    expect(formatDateSeparator(day(10), now)).toBe('Last Saturday');
    expect(formatDateSeparator(day(2), now)).toBe('01/02/2026');
    expect(formatMessageTime(new Date(2026, 0, 14, 15, 7))).toBe('3:07 PM');
  });

  it('puts a date before each day and the unread separator after the last read message', () => {
    const m = (id: string, at: string, user = 'bob') => ({ id, created_at: at, user: { id: user } });
    const items = withSeparators(
      [m('a', day(13)), m('b', day(14)), m('c', day(14, 10), 'me'), m('d', day(14, 11))],
      {
        lastReadMessageId: 'b',
        ownUserId: 'me',
        now,
      },
    );
    expect(
      items.map((i) =>
        i.kind === 'message' ? i.message.id : i.kind === 'date' ? i.label : `unread ${i.unreadCount}`,
      ),
    ).toEqual(['Yesterday', 'a', 'Today', 'b', 'c', 'unread 1', 'd']);
  });

  it('takes translated words for the labels, brackets in them stay text', () => {
    const labels = { today: 'Heute', tomorrow: 'Morgen', yesterday: 'Gestern', last: 'Letzten [x]' };
    expect(formatDateSeparator(day(14), now, labels)).toBe('Heute');
    expect(formatDateSeparator(day(13), now, labels)).toBe('Gestern');
    expect(formatDateSeparator(day(15), now, labels)).toBe('Morgen');
    expect(formatDateSeparator(day(10), now, labels)).toBe('Letzten x Saturday');
    const items = withSeparators([{ id: 'a', created_at: day(13), user: { id: 'bob' } }], { now, labels });
    expect(items[0]).toMatchObject({ kind: 'date', label: 'Gestern', key: `date-${localDayKey(day(13))}` });
  });

  it("groups by the app's calendar when it passes one (its time zone and words)", () => {
    // 23:30 UTC on the 13th is already the 14th in Oslo: the app's calendar decides the day.
    const calendar = {
      dayKey: (date: string) => new Date(new Date(date).getTime() + 3_600_000).toISOString().slice(0, 10),
      label: (date: string) => `day ${new Date(new Date(date).getTime() + 3_600_000).getUTCDate()}`,
    };
    const items = withSeparators(
      [
        { id: 'a', created_at: '2026-01-13T22:30:00.000Z', user: { id: 'bob' } },
        { id: 'b', created_at: '2026-01-13T23:30:00.000Z', user: { id: 'bob' } },
      ],
      { now, calendar },
    );
    expect(items.map((i) => (i.kind === 'date' ? `${i.key} ${i.label}` : i.key))).toEqual([
      'date-2026-01-13 day 13',
      'a',
      'date-2026-01-14 day 14',
      'b',
    ]);
  });
});
