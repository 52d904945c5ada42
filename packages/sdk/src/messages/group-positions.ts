import type { Message } from '@caseroom/protocol';

export type GroupPosition = 'single' | 'top' | 'middle' | 'bottom';

export interface GroupOptions {
  /** The connected user's last read message: a group never spans the unread boundary. */
  lastReadMessageId?: string;
  /** Day boundaries in this time zone offset (minutes, as `Date#getTimezoneOffset`); default local. */
  timezoneOffsetMinutes?: number;
}

/**
 * Positions of messages in sender groups (chat-spec §4): consecutive messages group when they have
 * the same sender on the same day, and neither is system/error/deleted. A message with attachments,
 * reactions or an edit closes its group (its footer shows), and so does the last-read message.
 * Messages are given oldest first.
 */
export function groupPositions(
  messages: readonly Message[],
  options: GroupOptions = {},
): Record<string, GroupPosition> {
  const positions: Record<string, GroupPosition> = {};
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    const joinsPrevious = i > 0 && joined(messages[i - 1] as Message, message, options);
    const joinsNext = i < messages.length - 1 && joined(message, messages[i + 1] as Message, options);
    positions[message.id] = joinsPrevious ? (joinsNext ? 'middle' : 'bottom') : joinsNext ? 'top' : 'single';
  }
  return positions;
}

/** Whether `next` continues the group of `previous`. */
function joined(previous: Message, next: Message, options: GroupOptions): boolean {
  if (!groupable(previous) || !groupable(next)) return false;
  if (senderOf(previous) === undefined || senderOf(previous) !== senderOf(next)) return false;
  if (dayOf(previous.created_at, options) !== dayOf(next.created_at, options)) return false;
  if (previous.id === options.lastReadMessageId) return false;
  return !closesGroup(previous);
}

function groupable(message: Message): boolean {
  return (
    message.type !== 'system' && message.type !== 'error' && message.type !== 'deleted' && !message.deleted_at
  );
}

function closesGroup(message: Message): boolean {
  const reactions = Object.values(message.reaction_counts ?? {}).some((count) => count > 0);
  const edited = message.message_text_updated_at !== undefined && message.message_text_updated_at !== null;
  return (message.attachments?.length ?? 0) > 0 || reactions || edited;
}

function senderOf(message: Message): string | undefined {
  return message.user?.id ?? message.user_id;
}

function dayOf(iso: string, options: GroupOptions): string {
  const date = new Date(iso);
  const offset = options.timezoneOffsetMinutes ?? date.getTimezoneOffset();
  return new Date(date.getTime() - offset * 60_000).toISOString().slice(0, 10);
}
