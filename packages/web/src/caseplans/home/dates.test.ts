// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n/t';
import { formatDate } from './dates';

const NOW = new Date('2030-06-15T12:00:00Z');
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const HOUR = 3_600_000;

describe('formatDate (the case-plan home formatter)', () => {
  afterEach(async () => {
    await setLanguage('en');
  });

  it('says how long ago or how soon, in the interface language', async () => {
    await setLanguage('en');
    expect(formatDate(at(-20_000), 'relative', NOW)).toBe('now');
    expect(formatDate(at(-5 * 60_000), 'relative', NOW)).toBe('5 minutes ago');
    expect(formatDate(at(-3 * HOUR), 'relative', NOW)).toBe('3 hours ago');
    expect(formatDate(at(24 * HOUR), 'relative', NOW)).toBe('tomorrow');
    expect(formatDate(at(23 * HOUR), 'relative', NOW)).toBe('tomorrow');
    expect(formatDate(at(20 * HOUR), 'relative', NOW)).toBe('in 20 hours');
    expect(formatDate(at(-3 * 24 * HOUR), 'relative', NOW)).toBe('3 days ago');
    await setLanguage('nb');
    expect(formatDate(at(24 * HOUR), 'relative', NOW)).toBe('i morgen');
    expect(formatDate(at(-3 * HOUR), 'relative', NOW)).toBe('for 3 timer siden');
  });

  it('falls back to the date a month away, and to nothing for an invalid date', async () => {
    await setLanguage('en');
    expect(formatDate(at(-40 * 24 * HOUR), 'relative', NOW)).toBe(
      formatDate(at(-40 * 24 * HOUR), 'date', NOW),
    );
    expect(formatDate(at(-40 * 24 * HOUR), 'date', NOW)).toMatch(/May \d+, 2030/);
    expect(formatDate('not a date', 'dateTime', NOW)).toBe('');
  });
});
