import type { Actor, ChatContext } from '../context.js';
import { ChatError } from '../errors.js';
import { channelForActor, requireAdmin, requireCapability } from '../policy/channel-access.js';
import { presentChannel } from '../presenters/channel.js';
import { write } from '../realtime/outbox.js';
import { memberIds } from '../store/channels.js';
import { channelIds } from '../views/messages.js';
import { deleteChannel } from './channel-lifecycle.js';
import { runTask } from './tasks.js';
import { dropFilesOfChannel } from '../files/lifecycle.js';

/** Hard delete: the channel, its members, messages, threads and recorded events are gone; members get `channel.deleted`. */
async function hardDeleteChannel(ctx: ChatContext, actor: Actor, cid: string): Promise<void> {
  await write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    requireCapability(access, 'delete-channel', 'delete the channel');
    const audience = await memberIds(q, cid);
    await q.query('DELETE FROM chat_events WHERE cid = $1', [cid]);
    // Its files go too: rows now (before the cascade would take them unseen), bytes after the commit.
    await dropFilesOfChannel(ctx, q, out, cid);
    await q.query('DELETE FROM chat_channels WHERE cid = $1', [cid]);
    for (const userId of audience) {
      out.notify(userId, {
        type: 'channel.deleted',
        ...channelIds(access.channel),
        channel: presentChannel(access.channel, undefined),
        hard_delete: true,
        created_at: new Date().toISOString(),
      });
    }
  });
}

/**
 * `POST /chat/channels/delete`: deletes channels (soft by default; `hard_delete` for the server and admins only)
 * as a task; each channel needs `delete-channel` and fails on its own (`result[cid].status` "error").
 */
export async function deleteChannels(
  ctx: ChatContext,
  actor: Actor,
  cids: string[],
  hard: boolean,
): Promise<string> {
  if (hard) await requireAdmin(ctx.db, actor, 'hard-delete channels');
  return runTask(ctx, actor, 'delete-channels', async () => {
    const result: Record<string, { status: 'ok' | 'error'; error?: string }> = {};
    for (const cid of new Set(cids)) {
      try {
        if (hard) await hardDeleteChannel(ctx, actor, cid);
        else await deleteChannel(ctx, actor, cid);
        result[cid] = { status: 'ok' };
      } catch (err) {
        if (!(err instanceof ChatError)) throw err;
        result[cid] = { status: 'error', error: err.message };
      }
    }
    return result;
  });
}
