import { MESSAGE_REMOVED_TEXT, type ChatUser, type Message, type Reaction } from '@caseroom/protocol';
import { isHiddenFor } from '../policy/read-access.js';
import type { MessageLookups } from '../store/messages.js';
import type { MessageRow, ReactionRow, UserRow } from '../store/rows.js';
import { iso } from './time.js';
import { presentUnknownUser, presentUser, presentUserOnce } from './user.js';

/** Column-backed message fields; custom data may not shadow them. */
export const RESERVED_MESSAGE_FIELDS = new Set([
  'id',
  'cid',
  'seq',
  'text',
  'type',
  'user',
  'user_id',
  'parent_id',
  'show_in_channel',
  'quoted_message_id',
  'quoted_message',
  'mentioned_users',
  'attachments',
  'silent',
  'pinned',
  'pinned_at',
  'pinned_by',
  'pin_expires',
  'reply_count',
  'reaction_counts',
  'reaction_scores',
  'reaction_groups',
  'latest_reactions',
  'own_reactions',
  'created_at',
  'updated_at',
  'deleted_at',
  'message_text_updated_at',
  'poll_id',
  'deleted_for_me',
  'status',
  'html',
  'shadowed',
  'moderation_details',
]);

export function presentReaction(row: ReactionRow, users?: ReadonlyMap<string, UserRow>): Reaction {
  const user = users?.get(row.user_id);
  return {
    ...row.custom,
    type: row.type,
    score: row.score,
    user_id: row.user_id,
    ...(user ? { user: presentUser(user) } : {}),
    message_id: row.message_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function userOf(id: string, lookups: MessageLookups): ChatUser {
  const row = lookups.users.get(id);
  return row ? presentUserOnce(row) : presentUnknownUser(id);
}

/** The message fields shared by a message and the message it quotes. */
function presentCore(row: MessageRow, lookups: MessageLookups): Message {
  const deletedForMe = isHiddenFor(row.id, lookups.viewerId, lookups.hiddenForViewer);
  const deleted = row.type === 'deleted' || deletedForMe;
  const removed = row.type === 'deleted' && row.removed_by_moderator === true && !deletedForMe;
  // An expired pin is no pin (chat-spec §4 Pin): nothing needs to run at the expiry instant.
  const pinned = row.pinned && (!row.pin_expires || new Date(row.pin_expires).getTime() > Date.now());
  const groups = row.reaction_groups ?? {};
  const custom = Object.fromEntries(
    Object.entries(row.custom ?? {}).filter(([k]) => !RESERVED_MESSAGE_FIELDS.has(k)),
  );
  return {
    ...(deleted ? {} : custom),
    id: row.id,
    cid: row.cid,
    // The message's place in its channel (the seq of its `message.new` event): every reader's order.
    seq: row.seq,
    // A deleted message keeps its row for threads and quotes, but never its content; a removed one says so.
    text: removed ? MESSAGE_REMOVED_TEXT : deleted ? '' : row.text,
    type: deleted ? 'deleted' : (row.type as Message['type']),
    ...(row.user_id ? { user_id: row.user_id, user: userOf(row.user_id, lookups) } : {}),
    ...(row.parent_id ? { parent_id: row.parent_id, show_in_channel: row.show_in_channel } : {}),
    ...(row.quoted_message_id ? { quoted_message_id: row.quoted_message_id } : {}),
    ...(row.poll_id && !deleted ? { poll_id: row.poll_id } : {}),
    mentioned_users: deleted ? [] : row.mentioned_users.map((id) => userOf(id, lookups)),
    attachments: deleted ? [] : row.attachments,
    silent: row.silent,
    pinned,
    pinned_at: pinned ? (iso(row.pinned_at) ?? null) : null,
    pin_expires: pinned ? (iso(row.pin_expires) ?? null) : null,
    ...(pinned && row.pinned_by_id ? { pinned_by: userOf(row.pinned_by_id, lookups) } : {}),
    reply_count: row.reply_count,
    reaction_counts: Object.fromEntries(Object.entries(groups).map(([t, g]) => [t, g.count])),
    reaction_scores: Object.fromEntries(Object.entries(groups).map(([t, g]) => [t, g.sum_scores])),
    reaction_groups: groups,
    latest_reactions: (lookups.latestReactions.get(row.id) ?? []).map((r) =>
      presentReaction(r, lookups.users),
    ),
    own_reactions: (lookups.ownReactions.get(row.id) ?? []).map((r) => presentReaction(r, lookups.users)),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    ...(row.deleted_at ? { deleted_at: iso(row.deleted_at) } : {}),
    ...(deletedForMe ? { deleted_for_me: true } : {}),
    ...(row.message_text_updated_at ? { message_text_updated_at: iso(row.message_text_updated_at) } : {}),
    ...(removed ? { moderation_details: { action: 'removed' } } : {}),
  };
}

/** A message as its viewer sees it, with the message it quotes (same for HTTP answers and events). */
export function presentMessage(row: MessageRow, lookups: MessageLookups): Message {
  const message = presentCore(row, lookups);
  const quoted = row.quoted_message_id ? lookups.quoted.get(row.quoted_message_id) : undefined;
  if (quoted) message.quoted_message = presentCore(quoted, lookups);
  return message;
}
