import type { ChatEvent, Message, Reaction } from '@caseroom/protocol';
import type { ClientContext } from '../client/context.js';
import { NOTICE_TEXTS } from '../notifications/notifications.js';
import { toChatApiError } from '../transport/errors.js';
import type { LocalMessage } from './local-message.js';
import {
  applyDeletion,
  applyPin,
  pinExpiresIso,
  withLocalReaction,
  type DeleteMode,
  type PinExpiry,
} from './message-state.js';
import {
  queryAllReactions,
  queryReactionPage,
  type ReactionPage,
  type ReactionQuery,
} from './reactions-query.js';
import { SERVER_SET_MESSAGE_FIELDS } from './server-fields.js';

/** What message actions need beyond the client context. */
export interface MessageActionContext extends ClientContext {
  /** The held copy of a message (channel or thread), if any. */
  findMessage(id: string): LocalMessage | undefined;
  /** Applies an event to channels, threads and lists without telling `client.on` listeners. */
  applyLocally(event: ChatEvent): void;
}

/** The editable part of a message for a full update (custom fields are replaced). */
export interface MessageUpdate {
  id: string;
  text?: string;
  attachments?: Record<string, unknown>[];
  mentioned_users?: (string | { id: string })[];
  silent?: boolean;
  [custom: string]: unknown;
}

export interface ReactionInput {
  type: string;
  /** Default 1. */
  score?: number;
  /** Replaces the user's other reactions on the message. */
  enforceUnique?: boolean;
  /** Custom reaction data. */
  [custom: string]: unknown;
}

/** chat-spec §7 fields the server owns; dropped from an update payload. */
const NOT_EDITABLE = new Set([...SERVER_SET_MESSAGE_FIELDS, 'id', 'parent_id', 'deleted_for_me']);

/**
 * Edit, delete, pin, react and flag (chat-spec §4, §7 Messages). State changes reach every holder of
 * the message (its channel, an open thread) the same way a server event would; the event that
 * follows from the server is idempotent with it. Failures show the §8 notice and reject.
 */
export class MessageActions {
  constructor(private readonly ctx: MessageActionContext) {}

  /** `POST /messages/{id}`: a full update (text, attachments, mentions, custom data replaced). */
  async update(update: MessageUpdate): Promise<Message> {
    if (!update.id) throw new Error('Please specify the message.id when calling updateMessage');
    const held = this.ctx.findMessage(update.id);
    const payload: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(update)) {
      if (!NOT_EDITABLE.has(key) && value !== undefined) payload[key] = value;
    }
    if (Array.isArray(update.mentioned_users))
      payload.mentioned_users = update.mentioned_users.map((u) => (typeof u === 'string' ? u : u.id));
    if (held && typeof update.text === 'string') this.put({ ...held, text: update.text });
    try {
      const answer = await this.ctx.api.post<{ message: Message }>(`/messages/${enc(update.id)}`, {
        message: payload,
      });
      this.applyServer('message.updated', answer.message);
      return answer.message;
    } catch (error) {
      if (held) this.put(held);
      throw this.fail(error, NOTICE_TEXTS.editError);
    }
  }

  /** `PUT /messages/{id}`: sets and unsets single fields, keeping the rest. */
  async partialUpdate(
    id: string,
    change: { set?: Record<string, unknown>; unset?: string[] },
  ): Promise<Message> {
    if (!id) throw new Error('Please specify the message.id when calling partialUpdateMessage');
    try {
      const answer = await this.ctx.api.request<{ message: Message }>('PUT', `/messages/${enc(id)}`, {
        body: change,
      });
      this.applyServer('message.updated', answer.message);
      return answer.message;
    } catch (error) {
      throw this.fail(error, NOTICE_TEXTS.editError);
    }
  }

  /**
   * `DELETE /messages/{id}` soft (default), hard (`?hard=true`: the message leaves every list) or
   * for me (`?delete_for_me=true`: deleted_for_me and type deleted, for this user only).
   */
  async delete(id: string, mode: DeleteMode = 'soft'): Promise<Message> {
    const query = mode === 'hard' ? { hard: true } : mode === 'for-me' ? { delete_for_me: true } : {};
    try {
      const answer = await this.ctx.api.delete<{ message: Message }>(`/messages/${enc(id)}`, { query });
      const at = new Date().toISOString();
      const held = this.ctx.findMessage(id);
      const message = held ? { ...answer.message, own_reactions: held.own_reactions } : answer.message;
      this.ctx.applyLocally({
        type: 'message.deleted',
        cid: message.cid,
        created_at: at,
        message: mode === 'soft' ? applyDeletion({ ...message, status: 'received' }, 'soft', at) : message,
        ...(mode === 'hard' ? { hard_delete: true } : {}),
        ...(mode === 'for-me' ? { deleted_for_me: true } : {}),
      } as ChatEvent);
      return answer.message;
    } catch (error) {
      throw this.fail(error, NOTICE_TEXTS.deleteError);
    }
  }

  /** Pins with an optional expiry (seconds from now, ISO string or date); "Message pinned". */
  async pin(id: string, expiry: PinExpiry = null): Promise<Message> {
    return this.setPinned(id, true, pinExpiresIso(expiry));
  }

  /** Unpins; "Message unpinned". */
  async unpin(id: string): Promise<Message> {
    return this.setPinned(id, false, null);
  }

  /** `POST /messages/{id}/reaction`: own_reactions and counts change at once, the answer settles them. */
  async sendReaction(messageId: string, input: ReactionInput): Promise<Reaction> {
    const { type, score = 1, enforceUnique = false, ...custom } = input;
    if (!messageId || !type) throw new Error('Reaction needs a message id and a non-empty reaction type');
    const me = this.me();
    const held = this.ctx.findMessage(messageId);
    const local: Reaction = {
      ...custom,
      type,
      score,
      user_id: me,
      message_id: messageId,
      created_at: new Date().toISOString(),
    };
    if (held) this.put(withLocalReaction(held, local, 'add', enforceUnique));
    try {
      const answer = await this.ctx.api.post<{ message: Message; reaction: Reaction }>(
        `/messages/${enc(messageId)}/reaction`,
        { reaction: { ...custom, type, score }, ...(enforceUnique ? { enforce_unique: true } : {}) },
      );
      this.applyReaction(enforceUnique ? 'reaction.updated' : 'reaction.new', answer);
      return answer.reaction;
    } catch (error) {
      if (held) this.put(held);
      throw this.fail(error);
    }
  }

  /** `DELETE /messages/{id}/reaction/{type}`. */
  async deleteReaction(messageId: string, type: string): Promise<void> {
    const held = this.ctx.findMessage(messageId);
    const own = held?.own_reactions.find((r) => r.type === type);
    if (held && own) this.put(withLocalReaction(held, own, 'remove'));
    try {
      const answer = await this.ctx.api.delete<{ message: Message; reaction: Reaction }>(
        `/messages/${enc(messageId)}/reaction/${enc(type)}`,
      );
      this.applyReaction('reaction.deleted', answer);
    } catch (error) {
      if (held) this.put(held);
      throw this.fail(error);
    }
  }

  /**
   * One page of a message's reactions, newest first, with their users (`GET /messages/{id}/reactions`;
   * pages of at most 300). "Error loading reactions" on failure.
   */
  async queryReactions(messageId: string, query: ReactionQuery = {}): Promise<ReactionPage> {
    try {
      return await queryReactionPage(this.ctx.api, messageId, query);
    } catch (error) {
      throw this.fail(error, NOTICE_TEXTS.reactionsLoadError);
    }
  }

  /** Every reaction of a message (of `type`), at most 1200, fetched in pages of 300 (chat-spec §9). */
  async queryAllReactions(
    messageId: string,
    options: { type?: string; max?: number } = {},
  ): Promise<Reaction[]> {
    try {
      return await queryAllReactions(this.ctx.api, messageId, options);
    } catch (error) {
      throw this.fail(error, NOTICE_TEXTS.reactionsLoadError);
    }
  }

  /** Flags another user's message for moderation (chat-spec §6: not own messages). */
  async flag(messageId: string, reason?: string): Promise<void> {
    const held = this.ctx.findMessage(messageId);
    if (held && (held.user?.id ?? held.user_id) === this.me()) {
      throw this.fail(new Error('own messages cannot be flagged'), NOTICE_TEXTS.flagError);
    }
    try {
      await this.ctx.api.post('/moderation/flag', {
        target_message_id: messageId,
        ...(reason ? { reason } : {}),
      });
      this.ctx.notify({ text: NOTICE_TEXTS.flagged, type: 'success' });
    } catch (error) {
      throw this.fail(error, NOTICE_TEXTS.flagError);
    }
  }

  private async setPinned(id: string, pinned: boolean, expires: string | null): Promise<Message> {
    if (!id) throw new Error('Please specify the message id when pinning or unpinning');
    const held = this.ctx.findMessage(id);
    if (held) this.put(applyPin(held, pinned, expires, new Date().toISOString()));
    try {
      const answer = await this.ctx.api.request<{ message: Message }>('PUT', `/messages/${enc(id)}`, {
        body: { set: pinned ? { pinned: true, pin_expires: expires } : { pinned: false } },
      });
      this.applyServer('message.updated', answer.message);
      this.ctx.notify({ text: pinned ? NOTICE_TEXTS.pinned : NOTICE_TEXTS.unpinned, type: 'success' });
      return answer.message;
    } catch (error) {
      if (held) this.put(held);
      throw this.fail(error, pinned ? NOTICE_TEXTS.pinError : NOTICE_TEXTS.unpinError);
    }
  }

  /** Replaces every held copy of the message as is (own_reactions included). */
  private put(message: LocalMessage): void {
    this.ctx.applyLocally({
      type: 'message.updated',
      cid: message.cid,
      created_at: new Date().toISOString(),
      message,
      local: true,
    } as ChatEvent);
  }

  private applyServer(type: 'message.updated', message: Message): void {
    this.ctx.applyLocally({ type, cid: message.cid, created_at: message.updated_at, message } as ChatEvent);
  }

  private applyReaction(
    type: 'reaction.new' | 'reaction.updated' | 'reaction.deleted',
    answer: { message: Message; reaction: Reaction },
  ): void {
    this.ctx.applyLocally({
      type,
      cid: answer.message.cid,
      created_at: answer.message.updated_at,
      message: answer.message,
      reaction: answer.reaction,
      user: { id: answer.reaction.user_id },
    } as ChatEvent);
  }

  private me(): string {
    const me = this.ctx.currentUser();
    if (!me) throw new Error('Make sure to await connectUser() first.');
    return me.id;
  }

  private fail(error: unknown, notice?: string): Error {
    const failure = toChatApiError(error);
    this.ctx.logger('warn', `message action failed: ${failure.message}`);
    if (notice) this.ctx.notify({ text: notice });
    return failure;
  }
}

function enc(part: string): string {
  return encodeURIComponent(part);
}
