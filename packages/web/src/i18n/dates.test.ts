import { describe, expect, it } from 'vitest';
import { dateFormatter, validTimeZone } from './dates';

const EN_WORDS = { today: 'Today', tomorrow: 'Tomorrow', yesterday: 'Yesterday', last: 'Last' };
const NB_WORDS = { today: 'I dag', tomorrow: 'I morgen', yesterday: 'I går', last: 'Forrige' };

// 18 June 2025 (a Wednesday) at 22:30 UTC: still the 18th in New York (18:30), already the 19th in Oslo (00:30).
const instant = '2025-06-18T22:30:00.000Z';
const oslo = { en: dateFormatter('en', 'Europe/Oslo'), nb: dateFormatter('nb', 'Europe/Oslo') };
const newYork = { en: dateFormatter('en', 'America/New_York'), nb: dateFormatter('nb', 'America/New_York') };

describe('dates: the interface language and the profile time zone', () => {
  it('writes times in the zone, in the language', () => {
    expect(oslo.en.time(instant)).toBe('12:30 AM');
    expect(oslo.nb.time(instant)).toBe('00:30');
    expect(newYork.en.time(instant)).toBe('6:30 PM');
    expect(newYork.nb.time(instant)).toBe('18:30');
  });

  it('puts an instant on the calendar day of the zone', () => {
    expect(oslo.en.dayKey(instant)).toBe('2025-06-19');
    expect(newYork.en.dayKey(instant)).toBe('2025-06-18');
    expect(oslo.nb.dateTime(instant)).toBe('19. juni 2025, 00:30');
    expect(newYork.en.dateTime(instant)).toBe('Jun 18, 2025, 6:30 PM');
    expect(newYork.nb.full(instant)).toBe('onsdag 18. juni 2025 kl. 18:30');
  });

  it('shows only the time for a message of today (in the zone), else the day too', () => {
    const now = new Date('2025-06-19T08:00:00.000Z'); // the 19th in both zones
    expect(oslo.en.messageTime(instant, now)).toBe('12:30 AM');
    expect(newYork.en.messageTime(instant, now)).toBe('Jun 18, 6:30 PM');
    expect(newYork.nb.messageTime(instant, now)).toBe('18. juni, 18:30');
  });

  it('labels date separators: Today, Yesterday, Tomorrow, weekday, Last weekday, date', () => {
    const now = new Date('2025-06-19T08:00:00.000Z'); // Thursday
    expect(oslo.en.separator(instant, now, EN_WORDS)).toBe('Today');
    expect(newYork.en.separator(instant, now, EN_WORDS)).toBe('Yesterday');
    expect(newYork.nb.separator(instant, now, NB_WORDS)).toBe('I går');
    expect(oslo.en.separator('2025-06-20T10:00:00Z', now, EN_WORDS)).toBe('Tomorrow');
    expect(oslo.en.separator('2025-06-22T10:00:00Z', now, EN_WORDS)).toBe('Sunday');
    expect(oslo.nb.separator('2025-06-14T10:00:00Z', now, NB_WORDS)).toBe('Forrige lørdag');
    expect(oslo.en.separator('2025-06-02T10:00:00Z', now, EN_WORDS)).toBe('06/02/2025');
    expect(oslo.nb.separator('2025-06-02T10:00:00Z', now, NB_WORDS)).toBe('02.06.2025');
  });

  it('reads and writes datetime-local values in the zone, across daylight saving', () => {
    expect(oslo.en.toInput(instant)).toBe('2025-06-19T00:30');
    expect(newYork.en.toInput(instant)).toBe('2025-06-18T18:30');
    expect(oslo.en.fromInput('2025-06-19T00:30')).toBe(instant);
    expect(newYork.en.fromInput('2025-01-10T09:00')).toBe('2025-01-10T14:00:00.000Z');
    expect(oslo.en.fromInput('nonsense')).toBe('');
  });

  it('writes a calendar day (a report week) as the same day whatever the zone', () => {
    expect(newYork.en.calendarDay('2026-11-23')).toBe('Nov 23, 2026');
    expect(oslo.nb.calendarDay('2026-11-23')).toBe('23. nov. 2026');
    expect(dateFormatter('nb', 'Pacific/Kiritimati').calendarDay('2026-11-23')).toBe('23. nov. 2026');
    expect(oslo.en.calendarDay('23.11.2026')).toBe('');
  });

  it('answers empty for invalid dates and falls back to the device zone for an unknown zone', () => {
    expect(oslo.en.time('not a date')).toBe('');
    expect(oslo.en.separator('', new Date(), EN_WORDS)).toBe('');
    expect(validTimeZone('Mars/Olympus')).toBeUndefined();
    expect(dateFormatter('en', 'Mars/Olympus').timeZone).toBeUndefined();
    expect(validTimeZone('Europe/Oslo')).toBe('Europe/Oslo');
  });

  it('builds one formatter per language, zone and pattern', () => {
    const a = dateFormatter('nb', 'Europe/Oslo');
    expect(a.time(instant)).toBe(oslo.nb.time(instant));
    expect(a.locale).toBe('nb-NO');
    expect(dateFormatter('en-GB', undefined).locale).toBe('en-US');
  });
});
