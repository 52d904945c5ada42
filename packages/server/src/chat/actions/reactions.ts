import type { Message, Reaction, SendReactionRequest } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed, notFound } from '../errors.js';
import { requireCapability } from '../policy/channel-access.js';
import { presentReaction } from '../presenters/message.js';
import { lockSeq, write } from '../realtime/outbox.js';
import { checkCustomSize } from './custom.js';
import { memberIds } from '../store/channels.js';
import type { MessageRow, ReactionRow } from '../store/rows.js';
import { getUsers } from '../store/users.js';
import { channelIds, messageForActor, presentRow } from '../views/messages.js';

/** Recomputes a message's reaction groups from its reactions (same transaction). */
async function regroup(q: Queryable, messageId: string): Promise<MessageRow> {
  const { rows } = await q.query<MessageRow>(
    `UPDATE chat_messages SET reaction_groups = coalesce((
       SELECT jsonb_object_agg(type, jsonb_build_object(
                'count', n, 'sum_scores', s,
                'first_reaction_at', to_char(f AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'last_reaction_at', to_char(l AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
         FROM (SELECT type, count(*)::int AS n, sum(score)::int AS s, min(created_at) AS f, max(updated_at) AS l
                 FROM chat_reactions WHERE message_id = $1 GROUP BY type) g), '{}'::jsonb),
       updated_at = now()
     WHERE id = $1 RETURNING *`,
    [messageId],
  );
  const row = rows[0];
  if (!row) throw notFound(`Message "${messageId}" does not exist`);
  return row;
}

function userOnly(actor: Actor): string {
  if (actor.kind !== 'user') throw notAllowed('reactions belong to a user; use a user token');
  return actor.userId;
}

/** `POST /chat/messages/{id}/reaction`: adds or updates the actor's reaction; `enforce_unique` replaces others. */
export async function sendReaction(
  ctx: ChatContext,
  actor: Actor,
  messageId: string,
  req: SendReactionRequest,
): Promise<{ message: Message; reaction: Reaction }> {
  const userId = userOnly(actor);
  return write(ctx, async (q, out) => {
    const { row, access } = await messageForActor(q, actor, messageId);
    requireCapability(access, 'send-reaction', 'react');
    if (row.type === 'deleted') throw inputError('cannot react to a deleted message');
    const { type, score, ...custom } = req.reaction;
    delete custom.user_id;
    delete custom.message_id;
    delete custom.user;
    checkCustomSize('reaction', custom);
    await lockSeq(q, out, row.cid);
    if (req.enforce_unique) {
      await q.query('DELETE FROM chat_reactions WHERE message_id = $1 AND user_id = $2 AND type <> $3', [
        messageId,
        userId,
        type,
      ]);
    }
    const { rows } = await q.query<ReactionRow & { existed: boolean }>(
      `INSERT INTO chat_reactions (message_id, user_id, type, score, custom) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (message_id, user_id, type) DO UPDATE SET score = EXCLUDED.score, custom = EXCLUDED.custom,
         updated_at = now()
       RETURNING *, (xmax <> 0) AS existed`,
      [messageId, userId, type, score ?? 1, JSON.stringify(custom)],
    );
    const saved = rows[0];
    if (!saved) throw inputError('reaction could not be saved');
    const updated = await regroup(q, messageId);
    const message = await presentRow(q, updated);
    const reaction = presentReaction(saved, await getUsers(q, [userId]));
    out.channelEvent(await memberIds(q, row.cid), {
      type: saved.existed || req.enforce_unique ? 'reaction.updated' : 'reaction.new',
      ...channelIds(access.channel),
      message,
      reaction,
      user: reaction.user ?? { id: userId },
      created_at: reaction.updated_at ?? reaction.created_at,
    });
    return { message, reaction };
  });
}

/** `DELETE /chat/messages/{id}/reaction/{type}`: removes the actor's reaction of that type. */
export async function deleteReaction(
  ctx: ChatContext,
  actor: Actor,
  messageId: string,
  type: string,
): Promise<{ message: Message; reaction: Reaction }> {
  const userId = userOnly(actor);
  return write(ctx, async (q, out) => {
    const { row, access } = await messageForActor(q, actor, messageId);
    await lockSeq(q, out, row.cid);
    const { rows } = await q.query<ReactionRow>(
      'DELETE FROM chat_reactions WHERE message_id = $1 AND user_id = $2 AND type = $3 RETURNING *',
      [messageId, userId, type],
    );
    const removed = rows[0];
    if (!removed) throw notFound(`reaction ${type} of user ${userId} does not exist`);
    const updated = await regroup(q, messageId);
    const message = await presentRow(q, updated);
    const reaction = presentReaction(removed, await getUsers(q, [userId]));
    out.channelEvent(await memberIds(q, row.cid), {
      type: 'reaction.deleted',
      ...channelIds(access.channel),
      message,
      reaction,
      user: { id: userId },
      created_at: new Date().toISOString(),
    });
    return { message, reaction };
  });
}
