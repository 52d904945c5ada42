import type { ChatUser, OwnUser } from '@caseroom/protocol';
import type { ApiClient } from '../transport/api-client.js';
import type { Logger } from '../transport/logger.js';

/**
 * The own user after a `user.updated` carrying `user` (other users' updates leave it as it is). Unread totals are
 * not taken from events: the client keeps them itself (read/unread-total), since a channel's `message.new` is
 * framed once for all members and carries none.
 */
export function withOwnUpdate(me: OwnUser, user: ChatUser): OwnUser {
  if (user.id !== me.id) return me;
  return { ...me, ...user, total_unread_count: me.total_unread_count, unread_channels: me.unread_channels };
}

/** The user's unread totals from `GET /unread` (muted channels left out by the server); undefined on failure. */
export async function fetchUnreadTotals(
  api: ApiClient,
  logger: Logger,
): Promise<Pick<OwnUser, 'total_unread_count' | 'unread_channels'> | undefined> {
  try {
    const answer = await api.get<{ total_unread_count: number; unread_channels: number }>('/unread');
    return { total_unread_count: answer.total_unread_count, unread_channels: answer.unread_channels };
  } catch (error) {
    logger('warn', `unread totals failed: ${String(error)}`);
    return undefined;
  }
}
