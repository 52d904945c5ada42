import type { MessageSets } from '@caseroom/sdk';

/**
 * The viewer's own message that was just sent (status `sending`, newest in the channel's latest set), when it is
 * not `seen` yet: the list goes to it (issue 15 "after you send, your message is on screen"), also when the list
 * shows an older set (opened at the unread line) — the echo is put in the latest set, not the one on screen.
 */
export function newOwnSend(
  sets: MessageSets,
  viewerId: string,
  seen: ReadonlySet<string>,
): string | undefined {
  const newest = sets.find((s) => s.isLatest)?.messages.at(-1);
  if (!newest || newest.status !== 'sending' || newest.parent_id) return undefined;
  if ((newest.user?.id ?? newest.user_id) !== viewerId || seen.has(newest.id)) return undefined;
  return newest.id;
}
