import dayjs from 'dayjs';
import calendar from 'dayjs/plugin/calendar.js';
import type { Message } from '@caseroom/protocol';

dayjs.extend(calendar);

/** chat-spec §9 Dates: Today, Tomorrow, weekday, Yesterday, Last weekday, else MM/DD/YYYY. */
const CALENDAR_FORMATS = {
  sameDay: '[Today]',
  nextDay: '[Tomorrow]',
  nextWeek: 'dddd',
  lastDay: '[Yesterday]',
  lastWeek: '[Last] dddd',
  sameElse: 'MM/DD/YYYY',
};

/** The date label of a day separator, relative to `now` (local time). */
export function formatDateSeparator(date: string | Date, now: string | Date = new Date()): string {
  return dayjs(date).calendar(dayjs(now), CALENDAR_FORMATS);
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
  let day = '';
  messages.forEach((message, index) => {
    const thisDay = dayjs(message.created_at).format('YYYY-MM-DD');
    if (thisDay !== day) {
      day = thisDay;
      items.push({
        kind: 'date',
        key: `date-${thisDay}`,
        date: thisDay,
        label: formatDateSeparator(message.created_at, options.now),
      });
    }
    if (index === firstUnread) {
      items.push({ kind: 'unread', key: 'unread', unreadCount: messages.length - firstUnread });
    }
    items.push({ kind: 'message', key: message.id, message });
  });
  return items;
}
