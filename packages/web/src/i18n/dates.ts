/**
 * The one date and time formatter of the web app: every date on screen goes through a {@link DateFormatter} for
 * the interface language and the signed-in user's profile time zone (product-spec §1 User `timezone`; absent =
 * the device's zone). Built on the platform's `Intl.DateTimeFormat`, which knows every language's patterns and the
 * IANA zone database; formatters are costly to build, so each (language, zone, pattern) is built once.
 */

/** Words of the date separators the platform has no pattern for (chat-spec §9 Dates). */
export interface DateWords {
  today: string;
  tomorrow: string;
  yesterday: string;
  /** Before a weekday of the past week: "Last Monday". */
  last: string;
}

const PATTERNS = {
  // The language's own clock: `6:30 PM` in English, `18:30` and `00:30` in Norwegian.
  time: { timeStyle: 'short' },
  day: { month: 'short', day: 'numeric' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  full: { dateStyle: 'full', timeStyle: 'short' },
  calendarDay: { dateStyle: 'medium' },
  date: { year: 'numeric', month: '2-digit', day: '2-digit' },
  weekday: { weekday: 'long' },
  // en-CA writes ISO dates (YYYY-MM-DD); only its numbers are used, never shown.
  dayKey: { year: 'numeric', month: '2-digit', day: '2-digit' },
  parts: {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
type Pattern = keyof typeof PATTERNS;

const cache = new Map<string, Intl.DateTimeFormat>();

function formatterFor(locale: string, timeZone: string | undefined, pattern: Pattern): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone ?? ''}|${pattern}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...PATTERNS[pattern], ...(timeZone ? { timeZone } : {}) });
    cache.set(key, format);
  }
  return format;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const relativeCache = new Map<string, Intl.RelativeTimeFormat>();

/** "tomorrow" rather than "in 1 day" (`numeric: 'auto'`), one per language. */
function relativeFor(locale: string): Intl.RelativeTimeFormat {
  let format = relativeCache.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeCache.set(locale, format);
  }
  return format;
}

/** A zone name the platform knows, else undefined (the device's zone): a bad profile value never breaks a screen. */
export function validTimeZone(zone: string | null | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/** The BCP 47 locale of an interface language (`nb` -> Norwegian bokmål; anything else English). */
export function localeOf(language: string | undefined): string {
  return language?.toLowerCase().startsWith('nb') ? 'nb-NO' : 'en-US';
}

function toDate(value: string | Date): Date | undefined {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Days since the epoch of a `YYYY-MM-DD` key: differences are whole calendar days in the zone. */
function dayNumber(key: string): number {
  const [y, m, d] = key.split('-').map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) / 86_400_000;
}

/** Formats dates in one language and time zone. Every method answers '' for an invalid date. */
export interface DateFormatter {
  readonly locale: string;
  readonly timeZone: string | undefined;
  /** `9:41 AM` / `09:41`. */
  time(value: string | Date): string;
  /** A message's time: the time today, day and time on other days (chat-spec §9). */
  messageTime(value: string | Date, now?: Date): string;
  /** Date and time, for events, statistics and the audit log: `Jun 18, 2025, 9:41 AM` / `18. juni 2025, 09:41`. */
  dateTime(value: string | Date): string;
  /** The full date and time, for a tooltip. */
  full(value: string | Date): string;
  /**
   * Relative to `now` up to 30 days away, in the language's words ("5 minutes ago", "tomorrow", "in 3 days";
   * from 22 hours on in whole days), else the medium date.
   */
  relative(value: string | Date, now?: Date): string;
  /**
   * A calendar day that is not an instant (`YYYY-MM-DD`, e.g. a report's week): `Nov 23, 2026` / `23. nov. 2026`,
   * the same day in every zone.
   */
  calendarDay(day: string): string;
  /** The calendar day in the zone, `YYYY-MM-DD` (the key of a date separator). */
  dayKey(value: string | Date): string;
  /** A day separator's label relative to `now` (chat-spec §9): Today, Tomorrow, weekday, Yesterday, Last weekday, date. */
  separator(value: string | Date, now: string | Date, words: DateWords): string;
  /** The wall-clock value of a `datetime-local` input in the zone (`YYYY-MM-DDTHH:mm`). */
  toInput(value: string | Date): string;
  /** The instant a `datetime-local` input's value names in the zone, as ISO; '' when unreadable. */
  fromInput(value: string): string;
}

/** The formatter of a language and a zone (undefined = the device's zone). */
export function dateFormatter(language: string | undefined, timeZone: string | undefined): DateFormatter {
  const locale = localeOf(language);
  const zone = validTimeZone(timeZone);
  const fmt = (pattern: Pattern, value: string | Date) => {
    const date = toDate(value);
    return date ? formatterFor(pattern === 'dayKey' ? 'en-CA' : locale, zone, pattern).format(date) : '';
  };
  /** The zone's wall clock at `date`, read as if it were UTC (for offsets). */
  const wallClock = (date: Date) => {
    const parts: Record<string, number> = {};
    for (const p of formatterFor('en-US', zone, 'parts').formatToParts(date)) parts[p.type] = Number(p.value);
    const n = (type: string) => parts[type] ?? 0;
    return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour') % 24, n('minute'), n('second'));
  };
  const dayKey = (value: string | Date) => fmt('dayKey', value);
  return {
    locale,
    timeZone: zone,
    time: (value) => fmt('time', value),
    messageTime(value, now = new Date()) {
      const key = dayKey(value);
      if (!key) return '';
      return key === dayKey(now) ? fmt('time', value) : `${fmt('day', value)}, ${fmt('time', value)}`;
    },
    dateTime: (value) => fmt('dateTime', value),
    full: (value) => fmt('full', value),
    relative(value, now = new Date()) {
      const date = toDate(value);
      if (!date) return '';
      const diff = date.getTime() - now.getTime();
      const abs = Math.abs(diff);
      if (abs >= 30 * DAY_MS) return fmt('calendarDay', date);
      const words = relativeFor(locale);
      if (abs < 60_000) return words.format(0, 'second');
      const [unit, size] =
        abs >= 22 * HOUR_MS
          ? (['day', DAY_MS] as const)
          : abs >= HOUR_MS
            ? (['hour', HOUR_MS] as const)
            : (['minute', 60_000] as const);
      return words.format(Math.round(diff / size), unit);
    },
    calendarDay(day) {
      const date = /^\d{4}-\d{2}-\d{2}$/.test(day) ? toDate(`${day}T00:00:00Z`) : undefined;
      return date ? formatterFor(locale, 'UTC', 'calendarDay').format(date) : '';
    },
    dayKey,
    separator(value, now, words) {
      const key = dayKey(value);
      const today = dayKey(now);
      if (!key || !today) return '';
      const diff = dayNumber(key) - dayNumber(today);
      if (diff === 0) return words.today;
      if (diff === 1) return words.tomorrow;
      if (diff === -1) return words.yesterday;
      if (diff > 1 && diff < 7) return fmt('weekday', value);
      if (diff < -1 && diff > -7) return `${words.last} ${fmt('weekday', value)}`;
      return fmt('date', value);
    },
    toInput(value) {
      const date = toDate(value);
      return date ? new Date(wallClock(date)).toISOString().slice(0, 16) : '';
    },
    fromInput(value) {
      const asUtc = new Date(`${value}:00Z`);
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) || Number.isNaN(asUtc.getTime())) return '';
      // The zone's offset at that moment; a second pass settles values near a daylight-saving change.
      let instant = asUtc.getTime() - (wallClock(asUtc) - asUtc.getTime());
      instant = asUtc.getTime() - (wallClock(new Date(instant)) - instant);
      return new Date(instant).toISOString();
    },
  };
}
