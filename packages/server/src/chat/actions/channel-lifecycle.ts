import type { Actor, ChatContext } from '../context.js';
import { notAllowed } from '../errors.js';
import { channelForActor, requireCapability } from '../policy/channel-access.js';
import { presentChannel } from '../presenters/channel.js';
import { messageInViewSql } from '../policy/read-access.js';
import { lockSeq, write } from '../realtime/outbox.js';
import { getChannel, memberIds, setUnreadSql, unreadSql } from '../store/channels.js';
import { channelIds } from '../views/messages.js';

function userOnly(actor: Actor): string {
  if (actor.kind !== 'user') throw notAllowed('this is per user; use a user token');
  return actor.userId;
}

/** `POST .../stop-watching`: the connection stops receiving `notification.message_new` suppression. */
export async function stopWatching(ctx: ChatContext, actor: Actor, cid: string): Promise<void> {
  await channelForActor(ctx.db, actor, cid);
  if (actor.kind === 'user' && actor.connectionId)
    await ctx.realtime.setWatching(actor.connectionId, cid, false);
}

/**
 * `POST .../hide` and `.../show`: hides the channel from the user's list until shown again or a new message
 * arrives; `clear_history` also drops the messages so far from their view. Emits `channel.hidden` / `channel.visible`
 * to the user's own connections.
 */
export async function setHidden(
  ctx: ChatContext,
  actor: Actor,
  cid: string,
  hidden: boolean,
  clearHistory = false,
) {
  const userId = userOnly(actor);
  await write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    await q.query(
      `UPDATE chat_members m SET hidden = $3, updated_at = now(),
              history_cleared_at = CASE WHEN $4 THEN now() ELSE history_cleared_at END,
              ${setUnreadSql('m', `CASE WHEN $4 THEN 0 ELSE ${unreadSql('m')} END`)}
        WHERE m.cid = $1 AND m.user_id = $2`,
      [cid, userId, hidden, hidden && clearHistory],
    );
    out.notify(userId, {
      type: hidden ? 'channel.hidden' : 'channel.visible',
      ...channelIds(access.channel),
      ...(hidden ? { clear_history: clearHistory } : {}),
      created_at: new Date().toISOString(),
    });
  });
}

/** `POST .../truncate`: clears the channel's history for everyone (needs update-channel); emits `channel.truncated`. */
export async function truncateChannel(ctx: ChatContext, actor: Actor, cid: string) {
  return write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    requireCapability(access, 'update-channel', 'truncate the channel');
    await lockSeq(q, out, cid);
    await q.query('UPDATE chat_channels SET truncated_at = now(), updated_at = now() WHERE cid = $1', [cid]);
    // Truncated messages are outside everyone's view (policy/read-access, read with no member's own cut-off): their
    // files are served no more.
    await q.query(
      `UPDATE chat_uploads u SET state = 'hidden'
         FROM chat_messages x JOIN chat_channels c ON c.cid = x.cid LEFT JOIN chat_members m ON false
        WHERE x.id = u.message_id AND x.cid = u.cid AND u.cid = $1
          AND NOT ${messageInViewSql({ message: 'x', member: 'm', channel: 'c' })}`,
      [cid],
    );
    await q.query(`UPDATE chat_members m SET ${setUnreadSql('m', '0')} WHERE m.cid = $1`, [cid]);
    const channel = await getChannel(q, cid);
    const presented = channel ? presentChannel(channel, undefined) : undefined;
    out.channelEvent(await memberIds(q, cid), {
      type: 'channel.truncated',
      ...channelIds(access.channel),
      ...(presented ? { channel: presented } : {}),
      created_at: new Date().toISOString(),
    });
    return { channel: presented };
  });
}

/** `DELETE /chat/channels/{type}/{id}`: soft-deletes the channel (needs delete-channel); emits `channel.deleted`. */
export async function deleteChannel(ctx: ChatContext, actor: Actor, cid: string) {
  return write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    requireCapability(access, 'delete-channel', 'delete the channel');
    await lockSeq(q, out, cid);
    await q.query('UPDATE chat_channels SET deleted_at = now(), updated_at = now() WHERE cid = $1', [cid]);
    // A deleted channel is read by nobody (policy/read-access): its files are served no more.
    await q.query(`UPDATE chat_uploads SET state = 'hidden' WHERE cid = $1 AND message_id IS NOT NULL`, [
      cid,
    ]);
    const presented = presentChannel(access.channel, undefined);
    out.channelEvent(await memberIds(q, cid), {
      type: 'channel.deleted',
      ...channelIds(access.channel),
      channel: presented,
      created_at: new Date().toISOString(),
    });
    return { channel: presented };
  });
}
