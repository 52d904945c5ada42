import { describe, expect, it } from 'vitest';
import { formatWeek, groupByWeek } from './weeks';

const row = (week: string, caseplan: string | null, chatsOpened: number, messagesSent: number) => ({
  week,
  caseplan,
  caseplanName: caseplan ? `Plan ${caseplan}` : null,
  chatsOpened,
  messagesSent,
});

describe('groupByWeek', () => {
  it('keeps the order, groups by week and totals each week', () => {
    const rows = [row('2026-11-23', 'a', 2, 5), row('2026-11-23', null, 0, 1), row('2026-11-16', 'a', 1, 0)];
    expect(groupByWeek(rows)).toEqual([
      { week: '2026-11-23', rows: rows.slice(0, 2), chatsOpened: 2, messagesSent: 6 },
      { week: '2026-11-16', rows: rows.slice(2), chatsOpened: 1, messagesSent: 0 },
    ]);
  });
  it('has no weeks without rows', () => {
    expect(groupByWeek([])).toEqual([]);
  });
});

describe('formatWeek', () => {
  it('shows the Monday in the interface language, whatever the local time zone', () => {
    expect(formatWeek('2026-11-23', 'en-GB')).toBe('23 Nov 2026');
    expect(formatWeek('2026-11-23', 'nb')).toBe('23. nov. 2026');
  });
});
