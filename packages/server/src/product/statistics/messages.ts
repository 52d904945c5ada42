import type { MessageNewHook } from '../../chat/server-api.js';
import type { Queryable } from '../../platform/db.js';

const stringList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/**
 * Records that a user sent a chat message (product-spec §4): `lastMessageSentAt` on every case plan of the
 * channel the sender is on, and `lastMessageToClientAt` too when the channel has a client (`hasClient`).
 * System messages and channels without case plans record nothing.
 */
export async function recordMessageSent(q: Queryable, event: MessageNewHook): Promise<void> {
  const { message, channel } = event;
  const userId = message.user?.id ?? message.user_id;
  const caseplans = stringList(channel.custom.caseplans);
  if (!userId || caseplans.length === 0 || message.type === 'system') return;
  const toClient = channel.custom.hasClient === true;
  await q.query(
    `INSERT INTO caseplan_stats (caseplan_id, user_id, last_message_sent_at, last_message_to_client_at, updated)
     SELECT cu.caseplan_id, cu.user_id, $3, CASE WHEN $4 THEN $3::timestamptz END, now()
       FROM caseplan_users cu WHERE cu.caseplan_id = ANY($1) AND cu.user_id = $2
     ON CONFLICT (caseplan_id, user_id) DO UPDATE SET
       last_message_sent_at = GREATEST(caseplan_stats.last_message_sent_at, EXCLUDED.last_message_sent_at),
       -- GREATEST skips NULLs: a message to a channel without a client keeps the earlier value.
       last_message_to_client_at = GREATEST(caseplan_stats.last_message_to_client_at,
                                            EXCLUDED.last_message_to_client_at),
       updated = now()`,
    [caseplans, userId, message.created_at, toClient],
  );
}
