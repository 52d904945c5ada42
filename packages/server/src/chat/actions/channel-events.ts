import { CustomEvent, isReservedEventType } from '@caseroom/protocol';
import type { Actor, ChatContext } from '../context.js';
import { inputError, invalidInput, notAllowed } from '../errors.js';
import { channelForActor, requireCapability } from '../policy/channel-access.js';
import { presentUser } from '../presenters/user.js';
import { memberIds } from '../store/channels.js';
import { getUser } from '../store/users.js';
import type { WireEvent } from '../realtime/fanout.js';
import { channelIds } from '../views/messages.js';

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
  // The protocol's reserved namespaces (every server event's, `capabilities.` included): nobody may send a frame a
  // client would take for the server's.
  if (!typing && isReservedEventType(input.type)) {
    throw inputError(`event type "${input.type}" is reserved`);
  }
  const access = await channelForActor(ctx.db, actor, cid);
  if (typing) requireCapability(access, 'typing-events', 'send typing events');
  else requireCapability(access, 'send-custom-events', 'send custom events');
  const row = await getUser(ctx.db, actor.userId);
  const common = {
    ...channelIds(access.channel),
    user: row ? presentUser(row) : { id: actor.userId },
    created_at: new Date().toISOString(),
  };
  let event: WireEvent;
  if (input.type === 'typing.start' || input.type === 'typing.stop') {
    event = {
      type: input.type,
      ...common,
      ...(typeof input.parent_id === 'string' ? { parent_id: input.parent_id } : {}),
    };
  } else {
    // The sender's own fields, under the server's: nobody sends a custom event in another's name.
    const parsed = CustomEvent.safeParse({ ...input, ...common, user_id: actor.userId });
    if (!parsed.success) throw invalidInput(parsed.error);
    event = parsed.data;
  }
  await ctx.realtime.publish([{ users: await memberIds(ctx.db, cid), event }]);
  return { event };
}
