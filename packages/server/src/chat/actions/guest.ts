import type { ChatUser } from '@caseroom/protocol';
import { signChatToken } from '../auth.js';
import type { ChatContext } from '../context.js';
import { notAllowed } from '../errors.js';
import { presentUser, RESERVED_USER_FIELDS } from '../presenters/user.js';
import type { UserRow } from '../store/rows.js';
import { checkCustomSize } from './custom.js';

/** Guest tokens last a day; then the visitor becomes a new guest (a new id): an id is never handed out twice. */
const GUEST_TOKEN_SECONDS = 24 * 60 * 60;

/**
 * `POST /chat/guest`: creates a new user with role `guest` and answers a token for it. Only a new id is accepted: an
 * id that exists (a guest's included: knowing a guest's id must not give their token) or that the server reserved
 * (the product's accounts, `reserveUserIds`) is refused with 403 (code 17), so a guest never takes over anyone.
 */
export async function createGuest(
  ctx: ChatContext,
  input: { id: string; name?: string } & Record<string, unknown>,
): Promise<{ access_token: string; user: ChatUser }> {
  const taken = () => notAllowed(`user id "${input.id}" is taken; a guest needs a new id`);
  for (const isReserved of ctx.hooks.reservedUserIds) {
    if (await isReserved(input.id)) throw taken();
  }
  const custom = Object.fromEntries(Object.entries(input).filter(([k]) => !RESERVED_USER_FIELDS.has(k)));
  checkCustomSize('user', custom);
  const { rows } = await ctx.db.query<UserRow>(
    `INSERT INTO chat_users (id, name, role, custom) VALUES ($1, $2, 'guest', $3)
     ON CONFLICT (id) DO NOTHING RETURNING *`,
    [input.id, input.name ?? null, JSON.stringify(custom)],
  );
  const row = rows[0];
  if (!row) throw taken();
  const access_token = await signChatToken(ctx.config, { user_id: row.id }, GUEST_TOKEN_SECONDS);
  return { access_token, user: presentUser(row) };
}
