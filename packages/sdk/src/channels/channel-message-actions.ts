import type { Message, Reaction } from '@caseroom/protocol';
import type { ClientContext } from '../client/context.js';
import type { MessageUpdate, ReactionInput } from '../messages/message-actions.js';
import type { DeleteMode, PinExpiry } from '../messages/message-state.js';
import type { ReactionPage, ReactionQuery } from '../messages/reactions-query.js';

/**
 * The message actions of a channel (chat-spec §4, §7 Messages): the same as `client.messageActions`,
 * which reach every channel and thread holding the message. `ChatChannel` extends this.
 */
export abstract class ChannelMessageActions {
  constructor(protected readonly ctx: ClientContext) {}

  /** Full update of a message (`POST /messages/{id}`); "Edit message request failed" on failure. */
  updateMessage(update: MessageUpdate): Promise<Message> {
    return this.ctx.messageActions().update(update);
  }

  /** `PUT /messages/{id}` with `set` / `unset`. */
  partialUpdateMessage(
    id: string,
    change: { set?: Record<string, unknown>; unset?: string[] },
  ): Promise<Message> {
    return this.ctx.messageActions().partialUpdate(id, change);
  }

  /** Soft (default), hard or for-me delete. */
  deleteMessage(id: string, mode: DeleteMode = 'soft'): Promise<Message> {
    return this.ctx.messageActions().delete(id, mode);
  }

  /** Pins with an optional expiry: seconds from now, ISO string or Date. */
  pinMessage(id: string, expiry: PinExpiry = null): Promise<Message> {
    return this.ctx.messageActions().pin(id, expiry);
  }

  unpinMessage(id: string): Promise<Message> {
    return this.ctx.messageActions().unpin(id);
  }

  sendReaction(messageId: string, reaction: ReactionInput): Promise<Reaction> {
    return this.ctx.messageActions().sendReaction(messageId, reaction);
  }

  deleteReaction(messageId: string, type: string): Promise<void> {
    return this.ctx.messageActions().deleteReaction(messageId, type);
  }

  /** One page of a message's reactions, newest first (pages of at most 300; `next` for the following). */
  queryReactions(messageId: string, query: ReactionQuery = {}): Promise<ReactionPage> {
    return this.ctx.messageActions().queryReactions(messageId, query);
  }

  flagMessage(messageId: string, reason?: string): Promise<void> {
    return this.ctx.messageActions().flag(messageId, reason);
  }
}
