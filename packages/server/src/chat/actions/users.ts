import type { ChatUser } from '@caseroom/protocol';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed } from '../errors.js';
import { presentUser, RESERVED_USER_FIELDS } from '../presenters/user.js';
import { peersOfSql } from '../policy/read-access.js';
import { write } from '../realtime/outbox.js';
import { checkCustomSize } from './custom.js';
import type { UserRow } from '../store/rows.js';
import { getUser } from '../store/users.js';

/** A user as the product (or the user themselves) upserts it. */
export type UserInput = { id: string; name?: string; image?: string | null; role?: string } & Record<
  string,
  unknown
>;

const ROLES = new Set(['user', 'admin', 'guest', 'anonymous']);

/** Checks an upsert: ids present, roles known, and a user changes only themselves and never their role. */
export function checkUpsertUsers(actor: Actor, users: UserInput[]): void {
  for (const u of users) {
    if (typeof u.id !== 'string' || u.id === '' || u.id.length > 255) {
      throw inputError('User ID is required when updating a user');
    }
    if (u.role !== undefined && !ROLES.has(u.role)) throw inputError(`unknown user role "${u.role}"`);
    if (actor.kind === 'user') {
      if (u.id !== actor.userId) throw notAllowed('a user may only update themselves');
      if (u.role !== undefined) throw notAllowed('a user may not change their role');
    }
  }
}

/**
 * `POST /chat/users` and the server API's `upsertUsers`: creates or replaces users; emits `user.updated`. A user whose
 * data is already what was sent is neither written again nor announced (the product upserts on every token
 * refresh).
 */
export async function upsertUsers(ctx: ChatContext, actor: Actor, users: UserInput[]): Promise<ChatUser[]> {
  checkUpsertUsers(actor, users);
  return write(ctx, async (q, out) => {
    const result: ChatUser[] = [];
    for (const u of users) {
      const custom = Object.fromEntries(Object.entries(u).filter(([k]) => !RESERVED_USER_FIELDS.has(k)));
      checkCustomSize('user', custom);
      const { rows } = await q.query<UserRow>(
        `INSERT INTO chat_users (id, name, image, role, language, custom)
         VALUES ($1, $2, $3, coalesce($4, 'user'), $5, $6)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, image = EXCLUDED.image,
           role = coalesce($4, chat_users.role), language = EXCLUDED.language, custom = EXCLUDED.custom,
           updated_at = now()
         WHERE (chat_users.name, chat_users.image, chat_users.role, chat_users.language, chat_users.custom)
               IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.image, coalesce($4, chat_users.role), EXCLUDED.language,
                                 EXCLUDED.custom)
         RETURNING *`,
        [
          u.id,
          typeof u.name === 'string' ? u.name : null,
          typeof u.image === 'string' ? u.image : null,
          u.role ?? null,
          typeof u.language === 'string' ? u.language : null,
          JSON.stringify(custom),
        ],
      );
      const row = rows[0];
      if (!row) {
        // Unchanged: nothing written, nobody told.
        const same = await getUser(q, u.id);
        if (same) result.push(presentUser(same));
        continue;
      }
      const user = presentUser(row);
      result.push(user);
      // Everyone who may see the user sees the change (chat-spec §4 Channel: user updated; policy/read-access).
      const peers = await q.query<{ user_id: string }>(peersOfSql('$1'), [u.id]);
      const audience = [...new Set([u.id, ...peers.rows.map((r) => r.user_id)])];
      out.transient({
        users: audience,
        event: { type: 'user.updated', user, created_at: user.updated_at ?? '' },
      });
    }
    return result;
  });
}
