import type { ChatServerApi } from '../../chat/server-api.js';
import type { Queryable } from '../../platform/db.js';
import { chatUserFor } from '../users/chat-user.js';

/** Most channels one case plan may have that the product keeps in step (frozen, members). */
const CHANNEL_LIMIT = 1000;

/** The chat channels tied to a case plan (custom `caseplans` contains its id). */
export async function caseplanChannels(chat: ChatServerApi, caseplanId: string) {
  return chat.queryChannels({ type: 'messaging', caseplans: caseplanId }, CHANNEL_LIMIT);
}

/** Freezes (close) or unfreezes (reopen) every chat channel of the case plan; they show 'Archived'. */
export async function setCaseplanChannelsFrozen(
  chat: ChatServerApi,
  caseplanId: string,
  frozen: boolean,
): Promise<void> {
  for (const channel of await caseplanChannels(chat, caseplanId)) {
    if (channel.frozen !== frozen) await chat.updateChannelPartial(channel.cid, { frozen });
  }
}

/**
 * Removes a person from the case plan's channels, except channels tied to another case plan where they are
 * still active (a chat spanning two plans stays theirs through the other one).
 */
export async function removeFromCaseplanChannels(
  chat: ChatServerApi,
  q: Queryable,
  caseplanId: string,
  userId: string,
): Promise<void> {
  const { rows } = await q.query<{ caseplan_id: string }>(
    'SELECT caseplan_id FROM caseplan_users WHERE user_id = $1 AND active',
    [userId],
  );
  const stillOn = new Set(rows.map((r) => r.caseplan_id));
  const channels = await chat.queryChannels(
    { type: 'messaging', caseplans: caseplanId, members: { $in: [userId] } },
    CHANNEL_LIMIT,
  );
  for (const channel of channels) {
    const plans = Array.isArray(channel.caseplans) ? (channel.caseplans as unknown[]) : [];
    if (plans.some((p) => typeof p === 'string' && stillOn.has(p))) continue;
    await chat.removeMembers(channel.cid, [userId]);
  }
}

/** Upserts the chat users of these people (name, image, clientOf, guestOf), in the caller's transaction. */
export async function syncChatUsers(chat: ChatServerApi, q: Queryable, userIds: string[]): Promise<void> {
  const users = [];
  for (const id of new Set(userIds)) {
    const user = await chatUserFor(q, id);
    if (user) users.push(user);
  }
  if (users.length) await chat.upsertUsers(users);
}
