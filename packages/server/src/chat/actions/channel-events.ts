import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed } from '../errors.js';
import { channelForActor, requireCapability } from '../policy/channel-access.js';
import { presentUser } from '../presenters/user.js';
import { memberIds } from '../store/channels.js';
import { getUser } from '../store/users.js';
import { channelIds } from '../views/messages.js';

/** Event types only the server emits; a client may not send them as custom events. */
const SERVER_PREFIXES = [
  'message.',
  'reaction.',
  'channel.',
  'member.',
  'notification.',
  'user.',
  'health.',
  'connection.',
  'thread.',
];

/**
 * `POST /chat/channels/{type}/{id}/event`: typing.start / typing.stop (optionally in a thread, `parent_id`)
 * and custom events, relayed to the channel's members. Not kept for sync: they are ephemeral.
 */
export async function sendChannelEvent(
  ctx: ChatContext,
  actor: Actor,
  cid: string,
  input: { type: string; parent_id?: string } & Record<string, unknown>,
) {
  if (actor.kind !== 'user') throw notAllowed('channel events are sent by users');
  const typing = input.type === 'typing.start' || input.type === 'typing.stop';
  if (!typing && SERVER_PREFIXES.some((p) => input.type.startsWith(p))) {
    throw inputError(`event type "${input.type}" is reserved`);
  }
  const access = await channelForActor(ctx.db, actor, cid);
  if (typing) requireCapability(access, 'typing-events', 'send typing events');
  else requireCapability(access, 'send-custom-events', 'send custom events');
  const row = await getUser(ctx.db, actor.userId);
  const event = {
    ...(typing ? {} : input),
    type: input.type,
    ...channelIds(access.channel),
    ...(typing && typeof input.parent_id === 'string' ? { parent_id: input.parent_id } : {}),
    user: row ? presentUser(row) : { id: actor.userId },
    created_at: new Date().toISOString(),
  };
  await ctx.realtime.publish([{ users: await memberIds(ctx.db, cid), event }]);
  return { event };
}
