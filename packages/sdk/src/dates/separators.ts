import dayjs from 'dayjs';
import calendar from 'dayjs/plugin/calendar.js';
import type { Message } from '@caseroom/protocol';

dayjs.extend(calendar);

/** The words of the date labels; an app passes translated ones (weekday names follow dayjs's locale). */
export interface DateLabels {
  today: string;
  tomorrow: string;
  yesterday: string;
  /** Before a weekday of the past week: "Last Monday". */
  last: string;
}

export const ENGLISH_DATE_LABELS: DateLabels = {
  today: 'Today',
  tomorrow: 'Tomorrow',
  yesterday: 'Yesterday',
  last: 'Last',
};

/** dayjs escapes text between brackets; a translated word must not close the bracket itself. */
const literal = (word: string) => `[${word.replace(/[[\]]/g, '')}]`;

/**
 * The date label of a day separator relative to `now`, in local time (chat-spec §9 Dates): Today,
 * Tomorrow, the weekday within the week ahead, Yesterday, "Last <weekday>" within the week before,
 * else MM/DD/YYYY.
 */
export function formatDateSeparator(
  date: string | Date,
  now: string | Date = new Date(),
  labels: DateLabels = ENGLISH_DATE_LABELS,
): string {
  return dayjs(date).calendar(dayjs(now), {
    sameDay: literal(labels.today),
    nextDay: literal(labels.tomorrow),
    nextWeek: 'dddd',
    lastDay: literal(labels.yesterday),
    lastWeek: `${literal(labels.last)} dddd`,
    sameElse: 'MM/DD/YYYY',
  });
}

/** The local day of a date, `YYYY-MM-DD` (the key of a date separator). */
export function localDayKey(date: string | Date): string {
  return dayjs(date).format('YYYY-MM-DD');
}

/** A message time, `h:mm A` (chat-spec §9). */
export function formatMessageTime(date: string | Date): string {
  return dayjs(date).format('h:mm A');
}

/** One entry of a message list with its separators (chat-spec §2 message list). */
export type MessageListItem<M extends Pick<Message, 'id' | 'created_at'> = Message> =
  | { kind: 'date'; key: string; date: string; label: string }
  | { kind: 'unread'; key: string; unreadCount: number }
  | { kind: 'message'; key: string; message: M };

export interface SeparatorOptions {
  /** The connected user's last read message: the unread separator goes after it. */
  lastReadMessageId?: string;
  /** Own messages never open the unread part. */
  ownUserId?: string;
  /** Default: now. */
  now?: string | Date;
  /** Translated words of the date labels; default English. */
  labels?: DateLabels;
  /**
   * The app's own calendar (its language and time zone): the day of a date and a separator's label. Default: the
   * device's zone with dayjs ({@link localDayKey}, {@link formatDateSeparator}).
   */
  calendar?: {
    dayKey(date: string): string;
    label(date: string, now: string | Date): string;
  };
}

/**
 * The message list with a date separator before the first message of each local day and an
 * unread separator before the first unread message from someone else (chat-spec §2). Pure: render
 * it as it is.
 */
export function withSeparators<M extends Pick<Message, 'id' | 'created_at' | 'user' | 'user_id'>>(
  messages: readonly M[],
  options: SeparatorOptions = {},
): MessageListItem<M>[] {
  const items: MessageListItem<M>[] = [];
  const readAt = options.lastReadMessageId
    ? messages.findIndex((m) => m.id === options.lastReadMessageId)
    : -1;
  const firstUnread =
    readAt < 0
      ? -1
      : messages.findIndex((m, i) => i > readAt && (m.user?.id ?? m.user_id) !== options.ownUserId);
  const now = options.now ?? new Date();
  const dayKey = options.calendar?.dayKey ?? localDayKey;
  const label = options.calendar?.label ?? ((date: string) => formatDateSeparator(date, now, options.labels));
  let day = '';
  messages.forEach((message, index) => {
    const thisDay = dayKey(message.created_at);
    if (thisDay !== day) {
      day = thisDay;
      items.push({
        kind: 'date',
        key: `date-${thisDay}`,
        date: thisDay,
        label: label(message.created_at, now),
      });
    }
    if (index === firstUnread) {
      items.push({ kind: 'unread', key: 'unread', unreadCount: messages.length - firstUnread });
    }
    items.push({ kind: 'message', key: message.id, message });
  });
  return items;
}
