import { i18n } from '../../i18n/t';

/** How a date is shown: a day, a day with time, or relative to now ("3 hours ago", "tomorrow"). */
export type DateStyle = 'date' | 'dateTime' | 'relative';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['minute', 60_000],
  ['hour', 3_600_000],
  // From 22 hours on, days: "tomorrow" reads better than "in 23 hours" (the count is rounded to whole days).
  ['day', 86_400_000],
];
const DAYS_FROM_MS = 22 * 3_600_000;

/**
 * The one date formatter of the case-plan home: `Intl` in the interface language (the user's time zone is the
 * browser's). `relative` says "5 minutes ago" / "in 2 days" up to 30 days away, then falls back to the date.
 */
export function formatDate(iso: string, style: DateStyle, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const locale = i18n.language || 'en';
  if (style === 'relative') {
    const diff = date.getTime() - now.getTime();
    const abs = Math.abs(diff);
    if (abs < 30 * 86_400_000) {
      const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
      if (abs < 60_000) return rtf.format(0, 'second');
      let [unit, ms] = UNITS[0]!;
      for (const [u, size] of UNITS) if (abs >= (u === 'day' ? DAYS_FROM_MS : size)) [unit, ms] = [u, size];
      return rtf.format(Math.round(diff / ms), unit);
    }
    style = 'date';
  }
  return new Intl.DateTimeFormat(
    locale,
    style === 'date'
      ? { dateStyle: 'medium' }
      : { weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' },
  ).format(date);
}
