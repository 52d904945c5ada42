import type { ChatUser } from '@caseroom/protocol';
import { signChatToken } from '../auth.js';
import type { ChatContext } from '../context.js';
import { notAllowed } from '../errors.js';
import { presentUser, RESERVED_USER_FIELDS } from '../presenters/user.js';
import type { UserRow } from '../store/rows.js';
import { checkCustomSize } from './custom.js';

/** Guest tokens last a day; the client asks for a new one (same id) when it expires (code 40). */
const GUEST_TOKEN_SECONDS = 24 * 60 * 60;

/**
 * `POST /chat/guest`: creates (or refreshes) a user with role `guest` and answers a token for it. An id that
 * belongs to a non-guest user is refused: a guest can never take over a real account.
 */
export async function createGuest(
  ctx: ChatContext,
  input: { id: string; name?: string } & Record<string, unknown>,
): Promise<{ access_token: string; user: ChatUser }> {
  const custom = Object.fromEntries(Object.entries(input).filter(([k]) => !RESERVED_USER_FIELDS.has(k)));
  checkCustomSize('user', custom);
  const { rows } = await ctx.db.query<UserRow>(
    `INSERT INTO chat_users (id, name, role, custom) VALUES ($1, $2, 'guest', $3)
     ON CONFLICT (id) DO UPDATE SET name = coalesce(EXCLUDED.name, chat_users.name), updated_at = now()
       WHERE chat_users.role = 'guest'
     RETURNING *`,
    [input.id, input.name ?? null, JSON.stringify(custom)],
  );
  const row = rows[0];
  if (!row) throw notAllowed(`user "${input.id}" exists and is not a guest`);
  const access_token = await signChatToken(ctx.config, { user_id: row.id }, GUEST_TOKEN_SECONDS);
  return { access_token, user: presentUser(row) };
}
