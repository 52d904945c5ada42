import { describe, expect, it } from 'vitest';
import { dateFormatter } from './dates';

const NOW = new Date('2030-06-15T12:00:00Z');
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const HOUR = 3_600_000;

describe('relative dates of the one formatter (the case-plan home)', () => {
  const en = dateFormatter('en', 'UTC');
  const nb = dateFormatter('nb', 'UTC');

  it('says how long ago or how soon, in the interface language', () => {
    expect(en.relative(at(-20_000), NOW)).toBe('now');
    expect(en.relative(at(-5 * 60_000), NOW)).toBe('5 minutes ago');
    expect(en.relative(at(-3 * HOUR), NOW)).toBe('3 hours ago');
    expect(en.relative(at(24 * HOUR), NOW)).toBe('tomorrow');
    expect(en.relative(at(23 * HOUR), NOW)).toBe('tomorrow');
    expect(en.relative(at(20 * HOUR), NOW)).toBe('in 20 hours');
    expect(en.relative(at(-3 * 24 * HOUR), NOW)).toBe('3 days ago');
    expect(nb.relative(at(24 * HOUR), NOW)).toBe('i morgen');
    expect(nb.relative(at(-3 * HOUR), NOW)).toBe('for 3 timer siden');
  });

  it('falls back to the date a month away, and to nothing for an invalid date', () => {
    expect(en.relative(at(-40 * 24 * HOUR), NOW)).toBe(en.calendarDay(at(-40 * 24 * HOUR).slice(0, 10)));
    expect(en.calendarDay(at(-40 * 24 * HOUR).slice(0, 10))).toMatch(/May \d+, 2030/);
    expect(en.relative('not a date', NOW)).toBe('');
  });
});
