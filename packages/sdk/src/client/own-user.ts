import type { ChatUser, OwnUser } from '@caseroom/protocol';

/**
 * The own user after a `user.updated` carrying `user` (other users' updates leave it as it is). Unread totals are
 * not taken from events: the client keeps them itself (read/unread-total), since a channel's `message.new` is
 * framed once for all members and carries none.
 */
export function withOwnUpdate(me: OwnUser, user: ChatUser): OwnUser {
  if (user.id !== me.id) return me;
  return { ...me, ...user, total_unread_count: me.total_unread_count, unread_channels: me.unread_channels };
}
