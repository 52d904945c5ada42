import type { ChatUser, Message, ReadState } from '@caseroom/protocol';

/** chat-spec §9: read-by notices show at most 5 names then "+N". */
export const READ_BY_NAMES_MAX = 5;

/** The other users who read up to `message` (their last read is at or after it). */
export function readBy(
  message: Pick<Message, 'id' | 'created_at' | 'user' | 'user_id'>,
  read: Readonly<Record<string, ReadState>>,
  ownUserId?: string,
): ChatUser[] {
  const author = message.user?.id ?? message.user_id;
  const at = Date.parse(message.created_at);
  return Object.values(read)
    .filter((r) => r.user.id !== ownUserId && r.user.id !== author && Date.parse(r.last_read) >= at)
    .map((r) => r.user);
}

/** The first 5 names (name, else id) and how many readers are left out, for a translated text. */
export function readByNames(users: readonly Pick<ChatUser, 'id' | 'name'>[]): {
  names: string[];
  rest: number;
} {
  const names = users.slice(0, READ_BY_NAMES_MAX).map((u) => u.name ?? u.id);
  return { names, rest: users.length - names.length };
}

/** "Ann, Bob, Cy, Di, Ed +2": at most 5 names, then the count of the rest. */
export function readByText(users: readonly Pick<ChatUser, 'id' | 'name'>[]): string {
  const { names, rest } = readByNames(users);
  return rest > 0 ? `${names.join(', ')} +${rest}` : names.join(', ');
}
