import {
  MESSAGE_REMOVED_TEXT,
  removedByModerator,
  type ChatEvent,
  type Message,
  type Reaction,
} from '@caseroom/protocol';
import type { LocalMessage } from './local-message.js';

export type DeleteMode = 'soft' | 'hard' | 'for-me';

/** A pin expiry as chat-spec §4 accepts it: seconds from now, an ISO string or a date; null for none. */
export type PinExpiry = number | string | Date | null;

/** The expiry as an ISO string (the wire and state shape), or null. */
export function pinExpiresIso(expiry: PinExpiry | undefined, now: number = Date.now()): string | null {
  if (expiry === null || expiry === undefined) return null;
  if (typeof expiry === 'number') return new Date(now + expiry * 1000).toISOString();
  const date = typeof expiry === 'string' ? new Date(expiry) : expiry;
  if (Number.isNaN(date.getTime())) throw new Error(`invalid pin expiry: ${String(expiry)}`);
  return date.toISOString();
}

/**
 * chat-spec §4 Deletion applied to a held message: soft makes it type deleted with attachments (and
 * text) cleared — a moderator's removal (`moderation_details.action: 'removed'`) shows "Message removed by a
 * moderator" instead; for-me marks deleted_for_me with type deleted; hard keeps only the basic fields
 * (callers normally drop a hard-deleted message from lists altogether).
 */
export function applyDeletion(message: LocalMessage, mode: DeleteMode, at: string): LocalMessage {
  if (mode === 'for-me') return { ...message, type: 'deleted', deleted_for_me: true };
  const base = { ...message, type: 'deleted' as const, deleted_at: message.deleted_at ?? at };
  // A moderator's removal keeps its notice (the server's text): never the removed words.
  const text = removedByModerator(message) ? MESSAGE_REMOVED_TEXT : '';
  if (mode === 'soft') return { ...base, text, attachments: [], mentioned_users: [] };
  return {
    id: message.id,
    cid: message.cid,
    type: 'deleted',
    text: '',
    ...(message.user ? { user: message.user } : {}),
    ...(message.user_id ? { user_id: message.user_id } : {}),
    ...(message.parent_id ? { parent_id: message.parent_id } : {}),
    mentioned_users: [],
    attachments: [],
    silent: message.silent,
    pinned: false,
    reply_count: message.reply_count,
    reaction_counts: {},
    reaction_scores: {},
    reaction_groups: {},
    latest_reactions: [],
    own_reactions: [],
    created_at: message.created_at,
    updated_at: at,
    deleted_at: base.deleted_at,
    status: message.status,
  };
}

/** Pin state set locally while the request runs (chat-spec §4 Pin). */
export function applyPin(
  message: LocalMessage,
  pinned: boolean,
  expiresIso: string | null,
  at: string,
): LocalMessage {
  if (!pinned) return { ...message, pinned: false, pinned_at: null, pin_expires: null };
  return { ...message, pinned: true, pinned_at: message.pinned_at ?? at, pin_expires: expiresIso };
}

/**
 * The server copy of a held message merged in. Events are presented once for every member, so their
 * `own_reactions` are not the viewer's: the held ones stay unless `ownReactions` is given.
 */
export function mergeServerMessage(
  held: LocalMessage | undefined,
  incoming: Message,
  ownReactions?: readonly Reaction[],
): LocalMessage {
  const { status: _s, error: _e, ...rest } = incoming as LocalMessage;
  const own = ownReactions ?? held?.own_reactions ?? incoming.own_reactions;
  return {
    ...rest,
    own_reactions: [...own],
    ...(held?.deleted_for_me && !incoming.deleted_for_me ? { deleted_for_me: true, type: 'deleted' } : {}),
    status: 'received',
  };
}

/** Own reactions after the user added `reaction` (`unique` replaces the other types, as enforce_unique). */
export function ownReactionsWith(own: readonly Reaction[], reaction: Reaction, unique = false): Reaction[] {
  return [...own.filter((r) => r.type !== reaction.type && !unique), reaction];
}

export function ownReactionsWithout(own: readonly Reaction[], type: string): Reaction[] {
  return own.filter((r) => r.type !== type);
}

/**
 * Optimistic counts for a reaction the user adds or removes before the server answers; the server's
 * message (from the answer or the event) replaces them.
 */
export function withLocalReaction(
  message: LocalMessage,
  reaction: Reaction,
  change: 'add' | 'remove',
  unique = false,
): LocalMessage {
  const counts = { ...message.reaction_counts };
  const scores = { ...message.reaction_scores };
  const bump = (type: string, by: number, score: number) => {
    const count = (counts[type] ?? 0) + by;
    if (count <= 0) {
      delete counts[type];
      delete scores[type];
    } else {
      counts[type] = count;
      scores[type] = Math.max(0, (scores[type] ?? 0) + by * score);
    }
  };
  const previous = message.own_reactions;
  if (change === 'add') {
    for (const r of previous) if (r.type === reaction.type || unique) bump(r.type, -1, r.score);
    bump(reaction.type, 1, reaction.score);
    return {
      ...message,
      reaction_counts: counts,
      reaction_scores: scores,
      own_reactions: ownReactionsWith(previous, reaction, unique),
    };
  }
  const had = previous.find((r) => r.type === reaction.type);
  if (had) bump(had.type, -1, had.score);
  return {
    ...message,
    reaction_counts: counts,
    reaction_scores: scores,
    own_reactions: ownReactionsWithout(previous, reaction.type),
  };
}

type MessageEvent = Extract<
  ChatEvent,
  { type: `message.${string}` | `reaction.${string}`; message: Message }
>;

/**
 * A held message after an update, delete or reaction event about it; undefined when it is gone
 * (hard delete). Events are presented once for every member, so their own_reactions are not the
 * viewer's: those change only when the viewer reacted. A client-side copy (`local: true`, an
 * optimistic change or its revert) carries the viewer's own reactions as they are.
 */
export function applyMessageEvent(
  held: LocalMessage,
  event: MessageEvent,
  me: string | undefined,
): LocalMessage | undefined {
  const flags = event as { hard_delete?: boolean; deleted_for_me?: boolean; local?: boolean };
  if (event.type === 'message.deleted' && flags.hard_delete === true) return undefined;
  const incoming = event.message;
  let own: readonly Reaction[] | undefined;
  if (flags.local === true) own = incoming.own_reactions;
  else if (
    (event.type === 'reaction.new' ||
      event.type === 'reaction.updated' ||
      event.type === 'reaction.deleted') &&
    event.reaction.user_id === me
  ) {
    const reaction = event.reaction;
    if (event.type === 'reaction.deleted') own = ownReactionsWithout(held.own_reactions, reaction.type);
    else {
      // An enforce_unique reaction removed the user's other types; their counts dropped with them.
      const kept = held.own_reactions.filter(
        (r) => r.type === reaction.type || (incoming.reaction_counts[r.type] ?? 0) > 0,
      );
      own = ownReactionsWith(kept, reaction);
    }
  }
  const merged = mergeServerMessage(held, incoming, own);
  return event.type === 'message.deleted' && flags.deleted_for_me === true
    ? applyDeletion(merged, 'for-me', event.created_at)
    : merged;
}
