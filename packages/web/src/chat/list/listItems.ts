import type { Message } from '@caseroom/protocol';
import { dateSeparatorLabel, dayKey } from './dates';

type ListMessage = Pick<Message, 'id' | 'created_at' | 'user' | 'user_id'>;

/** One row of the message list: a date separator, the unread separator or a message. */
export type ListItem<M extends ListMessage> =
  | { kind: 'date'; key: string; label: string }
  | { kind: 'unread'; key: 'unread'; count: number }
  | { kind: 'message'; key: string; message: M };

/**
 * The rows of a message list (chat-spec §2): a date separator before the first message of each local day and
 * the unread separator before the first message from someone else after `lastReadMessageId`.
 * (Mirrors the SDK's `withSeparators`, which is not exported yet.)
 */
export function listItems<M extends ListMessage>(
  messages: readonly M[],
  options: { lastReadMessageId?: string | undefined; viewerId: string; now?: Date },
): ListItem<M>[] {
  const items: ListItem<M>[] = [];
  const readAt = options.lastReadMessageId
    ? messages.findIndex((m) => m.id === options.lastReadMessageId)
    : -1;
  const firstUnread =
    readAt < 0
      ? -1
      : messages.findIndex((m, i) => i > readAt && (m.user?.id ?? m.user_id) !== options.viewerId);
  let day = '';
  messages.forEach((message, index) => {
    const thisDay = dayKey(message.created_at);
    if (thisDay !== day) {
      day = thisDay;
      items.push({
        kind: 'date',
        key: `date-${thisDay}`,
        label: dateSeparatorLabel(message.created_at, options.now),
      });
    }
    if (index === firstUnread)
      items.push({ kind: 'unread', key: 'unread', count: messages.length - firstUnread });
    items.push({ kind: 'message', key: message.id, message });
  });
  return items;
}

/** chat-spec §9: read-by shows at most 5 names, then '+N'. */
export const READ_BY_NAMES_MAX = 5;

/** '{names}' or '{names} +N' for the users who read a message. */
export function readByNames(names: readonly string[]): { names: string; rest: number } {
  return {
    names: names.slice(0, READ_BY_NAMES_MAX).join(', '),
    rest: Math.max(0, names.length - READ_BY_NAMES_MAX),
  };
}

/** The typing line (chat-spec §9: singular and plural wording). */
export function typingKey(count: number): 'none' | 'one' | 'two' | 'many' {
  if (count <= 0) return 'none';
  if (count === 1) return 'one';
  if (count === 2) return 'two';
  return 'many';
}
