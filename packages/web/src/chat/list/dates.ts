import dayjs from 'dayjs';
import calendar from 'dayjs/plugin/calendar';
import { t } from '../../i18n/t';

dayjs.extend(calendar);

/**
 * The label of a date separator (chat-spec §9 Dates): Today, Yesterday, the weekday within the week ahead
 * or 'Last <weekday>' within the week before, else MM/DD/YYYY. (The SDK has the same rule in
 * `dates/separators.ts` but does not export it yet; the words here go through i18n.)
 */
export function dateSeparatorLabel(date: string | Date, now: string | Date = new Date()): string {
  return dayjs(date).calendar(dayjs(now), {
    sameDay: `[${t('chat.date.today')}]`,
    nextDay: `[${t('chat.date.tomorrow')}]`,
    nextWeek: 'dddd',
    lastDay: `[${t('chat.date.yesterday')}]`,
    lastWeek: `[${t('chat.date.last')}] dddd`,
    sameElse: 'MM/DD/YYYY',
  });
}

/** A message time, `h:mm A` (chat-spec §9). */
export function messageTime(date: string | Date): string {
  return dayjs(date).format('h:mm A');
}

/** The local day of a date, `YYYY-MM-DD`. */
export function dayKey(date: string | Date): string {
  return dayjs(date).format('YYYY-MM-DD');
}
