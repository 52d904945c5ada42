import type { ChatEvent, OwnUser } from '@caseroom/protocol';
import type { ApiClient } from '../transport/api-client.js';
import type { Logger } from '../transport/logger.js';

/**
 * The own user after `event`: unread totals carried by events (`total_unread_count`, `unread_channels`)
 * and the user's own `user.updated`. Answers `me` itself when nothing changed.
 */
export function withEventTotals(me: OwnUser, event: ChatEvent): OwnUser {
  const totals = event as { total_unread_count?: unknown; unread_channels?: unknown };
  let next = me;
  if (typeof totals.total_unread_count === 'number' && totals.total_unread_count !== me.total_unread_count)
    next = { ...next, total_unread_count: totals.total_unread_count };
  if (typeof totals.unread_channels === 'number' && totals.unread_channels !== me.unread_channels)
    next = { ...next, unread_channels: totals.unread_channels };
  if (event.type === 'user.updated' && event.user.id === me.id) next = { ...next, ...event.user };
  return next;
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
