import type { ChatEvent, OwnUser } from '@caseroom/protocol';

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
