import type { DeviceRequest } from '@caseroom/protocol';
import type { Actor, ChatContext } from '../context.js';
import { notAllowed, notFound } from '../errors.js';
import { iso } from '../presenters/time.js';

export type DeviceInput = DeviceRequest;

interface DeviceRow {
  id: string;
  user_id: string;
  push_provider: string;
  push_provider_name: string | null;
  created_at: Date;
}

/** The user a device call acts for: oneself, or anyone for the server. */
function ownerOf(actor: Actor, userId: string | undefined): string {
  if (actor.kind === 'server') {
    if (!userId) throw notAllowed('user_id is required with a server token');
    return userId;
  }
  if (actor.anonymous) throw notAllowed('anonymous connections have no devices');
  if (userId && userId !== actor.userId) throw notAllowed('a user may only manage their own devices');
  return actor.userId;
}

/** `POST /chat/devices` (and the `device` of a connect payload): registers a push device for the user. */
export async function registerDevice(ctx: ChatContext, actor: Actor, input: DeviceInput): Promise<void> {
  const userId = ownerOf(actor, input.user_id);
  // The server may name any user id: one that does not exist is code 16, not a foreign-key failure.
  const { rowCount } = await ctx.db.query(
    `INSERT INTO chat_devices (id, user_id, push_provider, push_provider_name)
     SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM chat_users WHERE id = $2)
     ON CONFLICT (id) DO UPDATE SET user_id = EXCLUDED.user_id, push_provider = EXCLUDED.push_provider,
       push_provider_name = EXCLUDED.push_provider_name`,
    [input.id, userId, input.push_provider, input.push_provider_name ?? null],
  );
  if (!rowCount) throw notFound(`User "${userId}" does not exist`);
}

export async function listDevices(ctx: ChatContext, actor: Actor, userId?: string) {
  const owner = ownerOf(actor, userId);
  const { rows } = await ctx.db.query<DeviceRow>(
    'SELECT * FROM chat_devices WHERE user_id = $1 ORDER BY created_at',
    [owner],
  );
  return rows.map((r) => ({
    id: r.id,
    user_id: r.user_id,
    push_provider: r.push_provider,
    ...(r.push_provider_name ? { push_provider_name: r.push_provider_name } : {}),
    created_at: iso(r.created_at),
  }));
}

export async function deleteDevice(
  ctx: ChatContext,
  actor: Actor,
  id: string,
  userId?: string,
): Promise<void> {
  const owner = ownerOf(actor, userId);
  const res = await ctx.db.query('DELETE FROM chat_devices WHERE id = $1 AND user_id = $2', [id, owner]);
  if (res.rowCount === 0) throw notFound(`device "${id}" does not exist`);
}
