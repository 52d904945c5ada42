import type { ChatUser } from '@caseroom/protocol';
import type { UserRow } from '../store/rows.js';
import { iso } from './time.js';

/** Column-backed user fields; custom data may not shadow them. */
export const RESERVED_USER_FIELDS = new Set([
  'id',
  'name',
  'image',
  'role',
  'language',
  'online',
  'last_active',
  'created_at',
  'updated_at',
  'deactivated_at',
  'deleted_at',
  'total_unread_count',
  'unread_channels',
  'unread_count',
]);

/**
 * Users as presented, per user row read: a page, a channel list or a channel state shows the same users many times
 * (every message's author, each member in `members` and in `read`), presented once each and the one object
 * answered in each place.
 */
const presentedUsers = new WeakMap<UserRow, ChatUser>();

/** {@link presentUser}, once per row: the answer is shared, never to be changed. */
export function presentUserOnce(row: UserRow): ChatUser {
  let user = presentedUsers.get(row);
  if (!user) {
    user = presentUser(row);
    presentedUsers.set(row, user);
  }
  return user;
}

/** A user as every other user sees them: custom fields (clientOf, guestOf, ...) at the top level. */
export function presentUser(row: UserRow): ChatUser {
  const custom = Object.fromEntries(
    Object.entries(row.custom ?? {}).filter(([k]) => !RESERVED_USER_FIELDS.has(k)),
  );
  return {
    ...custom,
    id: row.id,
    ...(row.name !== null ? { name: row.name } : {}),
    ...(row.image !== null ? { image: row.image } : {}),
    role: row.role,
    ...(row.language !== null ? { language: row.language } : {}),
    ...(typeof row.online === 'boolean' ? { online: row.online } : {}),
    ...(row.last_active ? { last_active: iso(row.last_active) } : {}),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** A user known only by id (a row that is gone, e.g. hard-deleted). */
export function presentUnknownUser(id: string): ChatUser {
  return { id };
}
