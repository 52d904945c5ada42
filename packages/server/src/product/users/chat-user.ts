import type { ChatUserInput } from '../../chat/server-api.js';
import type { Queryable } from '../../platform/db.js';

/**
 * The chat user for a product user: name and image from the user record, `clientOf` / `guestOf` from the
 * organizations where they are an active client or guest (product-spec §6: client and guest are per team).
 * Computed in this one place so every upsert carries the complete record.
 */
export async function chatUserFor(q: Queryable, uid: string): Promise<ChatUserInput | undefined> {
  const { rows } = await q.query<{
    id: string;
    name: string;
    photo: string | null;
    client_of: string[];
    guest_of: string[];
  }>(
    `SELECT u.id, COALESCE(p.name, u.name) AS name, COALESCE(p.photo, u.image) AS photo,
            COALESCE(array_agg(ou.organization_id ORDER BY ou.organization_id)
                     FILTER (WHERE ou.type = 'client' AND ou.active), '{}') AS client_of,
            COALESCE(array_agg(ou.organization_id ORDER BY ou.organization_id)
                     FILTER (WHERE ou.type = 'guest' AND ou.active), '{}') AS guest_of
       FROM "user" u
       LEFT JOIN profiles p ON p.id = u.id
       LEFT JOIN organization_users ou ON ou.user_id = u.id
      WHERE u.id = $1
      GROUP BY u.id, p.name, u.name, p.photo, u.image`,
    [uid],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    ...(row.photo ? { image: row.photo } : {}),
    clientOf: row.client_of,
    guestOf: row.guest_of,
  };
}

/**
 * The team members among a channel's users: neither client nor guest of the channel's team (product-spec §6).
 * Product decision: they moderate the chats the product creates (slow mode, freeze, removing others' messages —
 * never editing them, see `chat-rules.ts`); clients and guests stay plain members.
 */
export function teamMemberIds(users: ChatUserInput[], team: string): string[] {
  const of = (u: ChatUserInput, field: 'clientOf' | 'guestOf') =>
    Array.isArray(u[field]) && (u[field] as unknown[]).includes(team);
  return users.filter((u) => !of(u, 'clientOf') && !of(u, 'guestOf')).map((u) => u.id);
}
