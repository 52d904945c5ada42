import type { OwnUser, ServerEvent } from '@caseroom/protocol';
import crypto from 'node:crypto';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed } from '../errors.js';
import { presentUser } from '../presenters/user.js';
import type { UserRow } from '../store/rows.js';
import { unreadTotals } from '../store/users.js';
import type { Connection, ConnectionSink } from './connections.js';
import { connectionOpened } from './presence.js';
import { registerDevice, type DeviceInput } from '../actions/devices.js';

/**
 * Opens a connection (WebSocket or long-poll) for an authenticated user or an anonymous visitor: registers it on
 * this node, records presence, registers the device named at connect time (the only moment a connection may set
 * it), and answers the first frame, `health.check` with `connection_id` and `me`.
 */
export async function openSession(
  ctx: ChatContext,
  actor: Actor,
  sink: ConnectionSink,
  device?: DeviceInput,
): Promise<{ conn: Connection; hello: string } | undefined> {
  if (actor.kind !== 'user') throw inputError('a server token cannot open a user connection');
  const anonymous = actor.anonymous === true;
  let me: OwnUser = {
    id: actor.userId,
    role: 'anonymous',
    total_unread_count: 0,
    unread_channels: 0,
  };
  let row: UserRow | undefined;
  if (!anonymous) {
    // A token is proof enough of the user: the row is created if missing, and marked active, in one statement.
    const { rows } = await ctx.db.query<UserRow>(
      `INSERT INTO chat_users (id, last_active) VALUES ($1, now())
       ON CONFLICT (id) DO UPDATE SET last_active = now() RETURNING *`,
      [actor.userId],
    );
    row = rows[0];
    if (!row) return undefined;
    if (row.deactivated_at || row.deleted_at) {
      throw notAllowed(`User "${actor.userId}" is ${row.deleted_at ? 'deleted' : 'deactivated'}`);
    }
    if (device) await registerDevice(ctx, actor, { ...device, user_id: actor.userId });
    me = { ...presentUser(row), online: true, ...(await unreadTotals(ctx.db, actor.userId)) };
  }
  if (!sink.open) return undefined;
  const conn: Connection = {
    id: crypto.randomUUID(),
    userId: actor.userId,
    sink,
    watching: new Set(),
    presence: false,
    anonymous,
    lastDelivery: 0,
  };
  ctx.realtime.connections.add(conn);
  await connectionOpened(ctx, conn, row);
  const hello = JSON.stringify({
    type: 'health.check',
    connection_id: conn.id,
    me,
    created_at: new Date().toISOString(),
  } satisfies ServerEvent);
  return { conn, hello };
}
