import { CHAT_LIMITS, CHAT_TIMING, ChatErrorCode, cooldownWaitOf, type ChatUser } from '@caseroom/protocol';
import type { ChatChannel } from '../channels/channel.js';
import type { ClientContext } from '../client/context.js';
import type { LocalMessage } from '../messages/local-message.js';
import { NOTICE_TEXTS } from '../notifications/notifications.js';
import { StateStore, type Store } from '../stores/store.js';
import { Debounce } from '../timing/debounce.js';
import { toChatApiError } from '../transport/errors.js';
import { AttachmentManager } from './attachment-manager.js';
import { cooldownRemaining, Countdown } from './cooldown.js';
import { LinkPreviewManager } from './link-preview-manager.js';
import type { SendOptions } from '../messages/local-echo.js';
import type { OgResponse } from '@caseroom/protocol';
import {
  activeTrigger,
  MEMBERS_FULLY_LOADED_BELOW,
  loadTransliteration,
  searchUsers,
  SUGGESTION_LIMIT,
} from './mention-search.js';
import { keepMentions, sendBlockReason, trimComposerText, type SendBlockReason } from './text.js';

export type Suggestion =
  | { kind: 'mention'; user: ChatUser }
  | { kind: 'command'; name: string; args?: string; description?: string };

export interface ComposerSnapshot {
  text: string;
  /** The message being edited (chat-spec §4 Editing). */
  editing?: LocalMessage;
  /** The message being quoted. */
  quoted?: LocalMessage;
  /** Users mentioned with `@`, kept only while the text still names them. */
  mentionedUsers: readonly ChatUser[];
  /** Autocomplete for the `@` or `/` being typed. */
  suggestions?: { trigger: '@' | '/'; query: string; items: readonly Suggestion[]; loading: boolean };
  /** Seconds of slow-mode cooldown left; 0 when sending is allowed. */
  cooldownRemaining: number;
  /** chat-spec §6: shown instead of the input ("You can't send messages in this channel"). */
  disabledText?: string;
  /** Why the composition cannot be sent now, or undefined. */
  blockReason?: SendBlockReason;
}

/** What a composer sends through: the channel's main list or a thread. */
export interface ComposerTarget {
  /** Undefined in the main list; the parent message id in a thread. */
  parentId?: string;
  send(
    draft: {
      text: string;
      mentioned_users: string[];
      quoted_message_id?: string;
      attachments?: Record<string, unknown>[];
    },
    options?: SendOptions,
  ): Promise<LocalMessage>;
}

/**
 * The text part of the message composer (chat-spec §5): text with trimming, edit mode and quote
 * (each only for a message of its own mode: no parent in the main list, a parent in a thread),
 * mentions with debounced user search, commands from the channel config, the slow-mode countdown,
 * the disabled-send text and the send-links rule. After a send the text resets; finishing an edit
 * brings back what was being written before it.
 */
export class MessageComposer {
  /** Files, images and voice recordings of the composition (chat-spec §5; `attachments.state` to observe). */
  readonly attachments: AttachmentManager;
  private readonly store: StateStore<ComposerSnapshot>;
  private readonly countdown: Countdown;
  private readonly search: Debounce<[string]>;
  private beforeEdit: Pick<ComposerSnapshot, 'text' | 'mentionedUsers' | 'quoted'> | undefined;
  private searchSeq = 0;
  private readonly unsubscribe: () => void;
  private readonly stopAttachments: () => void;
  /** Link previews of the text (chat-spec §4): `linkPreviews.state`, `dismiss(url)`. */
  readonly linkPreviews: LinkPreviewManager;

  constructor(
    private readonly ctx: ClientContext,
    private readonly channel: ChatChannel,
    private readonly target: ComposerTarget = {
      send: (draft, options) => channel.sendMessage(draft, options),
    },
  ) {
    this.linkPreviews = new LinkPreviewManager({
      enrich: (url) => ctx.api.get<OgResponse>('/og', { query: { url } }),
      enabled: () =>
        channel.state.getSnapshot().channel?.config.url_enrichment === true &&
        this.capabilities().includes('send-links'),
    });
    this.store = new StateStore<ComposerSnapshot>({ text: '', mentionedUsers: [], cooldownRemaining: 0 });
    this.attachments = new AttachmentManager(ctx, channel);
    this.stopAttachments = this.attachments.state.subscribe(() => this.refresh());
    this.countdown = new Countdown((remaining) => this.refresh({ cooldownRemaining: remaining }));
    this.search = new Debounce(
      (query: string) => void this.runMentionSearch(query),
      CHAT_TIMING.searchDebounceMs,
    );
    let seen = channel.state.getSnapshot().channel;
    this.unsubscribe = channel.state.subscribe(() => {
      const current = channel.state.getSnapshot().channel;
      this.refresh();
      // Cooldown or capabilities may have changed (slow mode set, channel frozen).
      if (
        current !== seen &&
        (current?.cooldown !== seen?.cooldown || current?.own_capabilities !== seen?.own_capabilities)
      )
        this.restartCooldown();
      seen = current;
    });
    this.refresh();
    this.restartCooldown();
  }

  get state(): Store<ComposerSnapshot> {
    return this.store;
  }

  /** chat-spec §5: text, sendable attachments or a poll, no upload running, at most 30 attachments, allowed now. */
  get canSend(): boolean {
    return this.store.getSnapshot().blockReason === undefined;
  }

  /** The text changed (at `cursor`): mentions no longer named are dropped, autocomplete updates. */
  setText(text: string, cursor: number = text.length): void {
    const next = text.slice(0, CHAT_LIMITS.maxMessageLength);
    const state = this.store.getSnapshot();
    this.refresh({ text: next, mentionedUsers: keepMentions(next, state.mentionedUsers) });
    if (next.trim() !== '' && !state.editing) this.channel.keystroke(this.target.parentId);
    if (!state.editing) this.linkPreviews.setText(next);
    this.updateSuggestions(next, Math.min(cursor, next.length));
  }

  /** Takes a suggestion: `@name ` or `/command ` replaces what was typed. */
  select(suggestion: Suggestion): void {
    const state = this.store.getSnapshot();
    const trigger = activeTrigger(state.text);
    if (!trigger) return;
    const inserted =
      suggestion.kind === 'mention'
        ? `@${suggestion.user.name ?? suggestion.user.id} `
        : `/${suggestion.name} `;
    const text = `${state.text.slice(0, trigger.start)}${inserted}${state.text.slice(trigger.start + 1 + trigger.query.length)}`;
    const mentionedUsers =
      suggestion.kind === 'mention' && !state.mentionedUsers.some((u) => u.id === suggestion.user.id)
        ? [...state.mentionedUsers, suggestion.user]
        : state.mentionedUsers;
    this.search.cancel();
    this.refresh({ text, mentionedUsers, suggestions: undefined });
  }

  closeSuggestions(): void {
    this.search.cancel();
    this.refresh({ suggestions: undefined });
  }

  /** Edits `message` if it belongs to this composer's mode; answers whether it was taken. */
  startEditing(message: LocalMessage): boolean {
    if (!this.matchesMode(message)) return false;
    const state = this.store.getSnapshot();
    this.beforeEdit ??= { text: state.text, mentionedUsers: state.mentionedUsers, quoted: state.quoted };
    this.refresh({
      editing: message,
      text: message.text,
      mentionedUsers: message.mentioned_users,
      quoted: undefined,
    });
    this.attachments.beginEditing(message.attachments);
    return true;
  }

  /** Leaves edit mode, bringing back the text written before it. */
  cancelEditing(): void {
    this.leaveEditing(false);
  }

  /** After a saved edit (`sent`) or a cancelled one (files uploaded for it are deleted). */
  private leaveEditing(sent: boolean): void {
    if (!this.store.getSnapshot().editing) return;
    const before = this.beforeEdit ?? { text: '', mentionedUsers: [], quoted: undefined };
    this.beforeEdit = undefined;
    this.attachments.endEditing(sent);
    this.refresh({ editing: undefined, ...before, suggestions: undefined });
  }

  /** Quotes `message` if it belongs to this composer's mode (undefined clears); answers whether it was taken. */
  setQuoted(message: LocalMessage | undefined): boolean {
    if (message && !this.matchesMode(message)) return false;
    this.refresh({ quoted: message });
    return true;
  }

  /**
   * Sends the composition (or the edit). Answers the sent message, or undefined when nothing was
   * sent: empty, blocked (the reason is in `blockReason`; links show the §5 notice) or a failed edit.
   */
  async send(): Promise<LocalMessage | undefined> {
    const state = this.store.getSnapshot();
    const text = trimComposerText(state.text);
    const reason = this.blockReason({ ...state, text });
    if (reason === 'links-not-allowed') this.ctx.notify({ text: NOTICE_TEXTS.linksNotAllowed });
    if (reason === 'uploads-pending') this.attachments.showWaitNotice();
    if (reason) return undefined;
    const mentioned = keepMentions(text, state.mentionedUsers).map((u) => u.id);
    const attachments = this.attachments.sendable();
    if (state.editing) {
      try {
        await this.ctx
          .messageActions()
          .update({ id: state.editing.id, text, mentioned_users: mentioned, attachments });
      } catch (error) {
        this.ctx.logger('warn', `edit failed: ${toChatApiError(error).message}`);
        return undefined;
      }
      const edited = this.channel.findMessage(state.editing.id) ?? { ...state.editing, text };
      this.leaveEditing(true);
      return edited;
    }
    this.refresh({ text: '', mentionedUsers: [], quoted: undefined, suggestions: undefined });
    const { attachments: previews, ...sendOptions } = this.linkPreviews.forSend();
    this.linkPreviews.clear();
    this.attachments.reset();
    // Files first, then the link previews the user kept (chat-spec §3: an attachment with og_scrape_url).
    const all = [...attachments, ...previews];
    const sent = await this.target.send(
      {
        text,
        mentioned_users: mentioned,
        ...(all.length > 0 ? { attachments: all } : {}),
        ...(state.quoted ? { quoted_message_id: state.quoted.id } : {}),
      },
      sendOptions,
    );
    if (sent.status === 'failed' && sent.error?.code === ChatErrorCode.Cooldown)
      this.serverCooldown(sent.error.message);
    else this.restartCooldown(sent.status === 'received' ? sent.created_at : undefined);
    return sent;
  }

  /** chat-spec §4 Editing: cleared when the active channel or thread changes; the quote too. */
  resetForSelect(): void {
    this.cancelEditing();
    this.search.cancel();
    this.refresh({ quoted: undefined, suggestions: undefined });
  }

  dispose(): void {
    this.unsubscribe();
    this.stopAttachments();
    this.attachments.dispose();
    this.countdown.stop();
    this.search.cancel();
    this.linkPreviews.dispose();
  }

  private matchesMode(message: LocalMessage): boolean {
    return this.target.parentId === undefined
      ? !message.parent_id
      : message.parent_id === this.target.parentId;
  }

  private capabilities(): readonly string[] {
    return this.channel.state.getSnapshot().channel?.own_capabilities ?? [];
  }

  private blockReason(state: ComposerSnapshot): SendBlockReason | undefined {
    const caps = this.channel.state.getSnapshot().channel
      ? this.capabilities()
      : ['send-message', 'send-reply', 'send-links'];
    return sendBlockReason({
      text: state.text,
      capabilities: caps,
      reply: this.target.parentId !== undefined,
      editing: state.editing !== undefined,
      attachmentCount: this.attachments.state.getSnapshot().attachments.length,
      sendableAttachments: this.attachments.state.getSnapshot().sendableCount,
      uploadsPending: this.attachments.state.getSnapshot().uploadsInProgress > 0,
      cooldownRemaining: state.editing ? 0 : state.cooldownRemaining,
    });
  }

  /** Publishes `patch` with the derived fields (disabled text, block reason) recomputed. */
  private refresh(patch: Partial<ComposerSnapshot> = {}): void {
    const merged = { ...this.store.getSnapshot(), ...patch };
    const known = this.channel.state.getSnapshot().channel !== undefined;
    const capability = this.target.parentId === undefined ? 'send-message' : 'send-reply';
    const disabledText =
      known && !merged.editing && !this.capabilities().includes(capability)
        ? this.target.parentId === undefined
          ? NOTICE_TEXTS.cannotSend
          : NOTICE_TEXTS.cannotSendReply
        : undefined;
    const blockReason = this.blockReason(merged);
    this.store.patch({ ...patch, disabledText, blockReason });
  }

  /** chat-spec §4 Cooldown: from the channel's cooldown and the last own message, only in slow mode. */
  private restartCooldown(lastOwnAt?: string): void {
    const state = this.channel.state.getSnapshot();
    if (!state.channel?.cooldown || !this.capabilities().includes('slow-mode')) {
      if (this.countdown.value > 0) this.countdown.start(0);
      return;
    }
    const me = this.ctx.currentUser()?.id;
    const last =
      lastOwnAt ??
      [...state.messages].reverse().find((m) => (m.user?.id ?? m.user_id) === me && m.status === 'received')
        ?.created_at;
    this.countdown.start(cooldownRemaining(state.channel.cooldown, last));
  }

  /**
   * The server refused a send for slow mode (code 60). It counts every own message, thread replies included, which
   * this composer may not hold: count down from the wait it named (the full cooldown if it named none).
   */
  private serverCooldown(message: string): void {
    const cooldown = this.channel.state.getSnapshot().channel?.cooldown ?? 0;
    const named = cooldownWaitOf(message);
    // Never longer than the cooldown this client knows, when it knows one.
    const wait = named === undefined ? cooldown : cooldown > 0 ? Math.min(named, cooldown) : named;
    if (wait > 0) this.countdown.start(wait);
  }

  private updateSuggestions(text: string, cursor: number): void {
    const trigger = activeTrigger(text, cursor);
    if (!trigger) {
      this.search.cancel();
      if (this.store.getSnapshot().suggestions) this.refresh({ suggestions: undefined });
      return;
    }
    if (trigger.trigger === '/') {
      const commands = this.channel.state.getSnapshot().channel?.config.commands ?? [];
      const q = trigger.query.toLowerCase();
      const items: Suggestion[] = commands
        .filter((c) => c.name.toLowerCase().startsWith(q))
        .sort((a, b) => a.name.localeCompare(b.name))
        .slice(0, SUGGESTION_LIMIT)
        .map((c) => ({ kind: 'command', ...c }));
      this.refresh({ suggestions: { trigger: '/', query: trigger.query, items, loading: false } });
      return;
    }
    const previous = this.store.getSnapshot().suggestions;
    this.refresh({
      suggestions: {
        trigger: '@',
        query: trigger.query,
        items: previous?.trigger === '@' ? previous.items : [],
        loading: true,
      },
    });
    this.search.call(trigger.query);
  }

  /** Members listed whole under 100 are searched here; larger channels ask the server by name. */
  private async runMentionSearch(query: string): Promise<void> {
    const seq = ++this.searchSeq;
    const state = this.channel.state.getSnapshot();
    const me = this.ctx.currentUser()?.id;
    const memberCount = state.channel?.member_count ?? state.members.length;
    let users: ChatUser[];
    try {
      if (memberCount < MEMBERS_FULLY_LOADED_BELOW) {
        users = state.members.flatMap((m) => (m.user ? [m.user] : [{ id: m.user_id }]));
      } else {
        const payload = {
          filter_conditions: query ? { name: { $autocomplete: query } } : {},
          sort: [{ field: 'name', direction: 1 }],
          limit: SUGGESTION_LIMIT,
        };
        users = (
          await this.ctx.api.get<{ users: ChatUser[] }>('/users', {
            query: { payload: JSON.stringify(payload) },
          })
        ).users;
      }
    } catch (error) {
      this.ctx.logger('warn', `mention search failed: ${toChatApiError(error).message}`);
      users = [];
    }
    await loadTransliteration().catch(() => undefined); // without it, accents are still stripped
    const current = this.store.getSnapshot().suggestions;
    if (seq !== this.searchSeq || current?.trigger !== '@' || current.query !== query) return;
    const items: Suggestion[] = searchUsers(users, query, me).map((user) => ({ kind: 'mention', user }));
    this.refresh({ suggestions: { trigger: '@', query, items, loading: false } });
  }
}
