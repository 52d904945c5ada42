import type { MessageListItem } from '@caseroom/sdk';

/**
 * The message list's direction (chat-spec §2): `bottom-to-top` (the default) has the newest message at the
 * bottom and older ones above; `top-to-bottom` has the newest at the top and older ones below.
 */
export type ListDirection = 'bottom-to-top' | 'top-to-bottom';

/**
 * The rows in screen order. The SDK's rows are oldest first; newest-first keeps each date separator above its
 * day and the unread separator between the read and unread messages.
 */
export function rowsInDirection<M extends { id: string; created_at: string }>(
  rows: readonly MessageListItem<M>[],
  direction: ListDirection,
): MessageListItem<M>[] {
  if (direction === 'bottom-to-top') return [...rows];
  const days: MessageListItem<M>[][] = [];
  for (const row of rows) {
    if (row.kind === 'date' || days.length === 0) days.push([row]);
    else days[days.length - 1]?.push(row);
  }
  return days.reverse().flatMap((day) => {
    const [first, ...rest] = day;
    if (!first) return [];
    return first.kind === 'date' ? [first, ...rest.reverse()] : [...day].reverse();
  });
}
