import type { Actor, ChatContext } from '../context.js';
import { notAllowed } from '../errors.js';
import { canReadChannel } from '../policy/capabilities.js';
import { presentUser } from '../presenters/user.js';
import { lockSeq, write } from '../realtime/outbox.js';
import { getChannel, getMember, memberIds } from '../store/channels.js';
import { getMessage } from '../store/messages.js';
import { getUser } from '../store/users.js';
import { channelIds } from '../views/messages.js';

/**
 * `POST /chat/channels/delivered`: the client's batched delivery reports (at most 100, the newest message per
 * channel). Reports for channels the caller cannot read, unknown messages or messages older than the last report
 * are skipped (a later report supersedes them). Emits `message.delivered` to the channel's readers.
 */
export async function markDelivered(
  ctx: ChatContext,
  actor: Actor,
  reports: Array<{ cid: string; id: string }>,
): Promise<Record<string, never>> {
  if (actor.kind !== 'user' || actor.anonymous) throw notAllowed('delivery reports belong to a user');
  const userId = actor.userId;
  await write(ctx, async (q, out) => {
    const userRow = await getUser(q, userId);
    const user = userRow ? presentUser(userRow) : { id: userId };
    for (const { cid, id } of reports) {
      const channel = await getChannel(q, cid);
      const member = channel ? await getMember(q, cid, userId) : undefined;
      const message = await getMessage(q, id);
      if (!channel || !canReadChannel({ member }) || message?.cid !== cid) continue;
      await lockSeq(q, out, cid);
      const res = await q.query<{ last_delivered_at: Date }>(
        `UPDATE chat_members SET last_delivered_at = $3, last_delivered_message_id = $4
          WHERE cid = $1 AND user_id = $2 AND (last_delivered_at IS NULL OR last_delivered_at < $3)
          RETURNING last_delivered_at`,
        [cid, userId, message.created_at, message.id],
      );
      if (res.rowCount === 0) continue;
      out.channelEvent(await memberIds(q, cid), {
        type: 'message.delivered',
        ...channelIds(channel),
        user,
        last_delivered_message_id: message.id,
        last_delivered_at: message.created_at.toISOString(),
        created_at: new Date().toISOString(),
      });
    }
  });
  return {};
}
