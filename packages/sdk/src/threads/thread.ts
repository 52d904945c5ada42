import {
  CHAT_LIMITS,
  CHAT_TIMING,
  type ChatEvent,
  type Message,
  type ReadState,
  type SendMessageResponse,
} from '@caseroom/protocol';
import type { ChatChannel } from '../channels/channel.js';
import type { ClientContext } from '../client/context.js';
import { MessageComposer } from '../composer/message-composer.js';
import {
  compareMessages,
  createLocalMessage,
  received,
  type LocalMessage,
  type MessageDraft,
} from '../messages/local-message.js';
import {
  deliverWithEcho,
  echoTime,
  echoUser,
  forResend,
  type EchoHost,
  type SendOptions,
} from '../messages/local-echo.js';
import { applyMessageEvent, mergeServerMessage } from '../messages/message-state.js';
import { ReadMarker } from '../read/read-marker.js';
import { StateStore, type Store } from '../stores/store.js';
import { toChatApiError } from '../transport/errors.js';

export const THREAD_REPLY_PAGE: number = CHAT_LIMITS.threadReplyPageSize;

/** One thread as the client sees it (chat-spec §3 Thread, §4 Thread states). */
export interface ThreadSnapshot {
  /** The parent message id. */
  id: string;
  cid: string;
  parentMessage?: LocalMessage;
  /** Replies held, oldest first, with local echo (sending / failed). */
  replies: readonly LocalMessage[];
  /** The server has older replies than the first held. */
  hasPrev: boolean;
  /** The thread is the one open on screen. */
  active: boolean;
  /** A load (first page, older page or reload) is running. */
  loading: boolean;
  /** The channel is no longer watched (or the connection dropped): the state may be behind. */
  stale: boolean;
  /** Unread replies of the connected user (0 while active). */
  unreadCount: number;
  read: Readonly<Record<string, ReadState>>;
  participants: readonly { id: string; name?: string; image?: string }[];
  lastMessageAt?: string;
  error?: string;
}

/** What a thread list answer tells about one thread. */
export type ThreadListData = Partial<
  Pick<ThreadSnapshot, 'read' | 'participants' | 'lastMessageAt' | 'unreadCount'>
> & { latestReplies?: readonly Message[] };

/** What a thread needs from the client. */
export interface ThreadContext extends ClientContext {
  onEvent(handler: (event: ChatEvent) => void): () => void;
}

/**
 * A thread: the replies to one parent message, paged 50 at a time (`GET /messages/{id}/replies`),
 * kept live by events, with local echo for replies. It turns stale when its channel stops being
 * watched; an active stale thread reloads at once.
 */
export class Thread {
  private readonly store: StateStore<ThreadSnapshot>;
  private readonly unsubscribers: (() => void)[] = [];
  private composerInstance: MessageComposer | undefined;
  private readonly readMarker = new ReadMarker(
    () => void this.sendMarkRead(),
    CHAT_TIMING.markThreadReadThrottleMs,
  );
  /** The replies were fetched at least once (a list answer holds only the latest few). */
  private loaded = false;

  constructor(
    private readonly ctx: ThreadContext,
    readonly channel: ChatChannel,
    parent: Message | string,
    data: ThreadListData = {},
  ) {
    const parentMessage = typeof parent === 'string' ? undefined : received(parent);
    const latest = (data.latestReplies ?? []).map(received).sort(compareMessages);
    this.store = new StateStore<ThreadSnapshot>({
      id: typeof parent === 'string' ? parent : parent.id,
      cid: channel.cid ?? '',
      ...(parentMessage ? { parentMessage } : {}),
      replies: latest,
      hasPrev: parentMessage ? latest.length < parentMessage.reply_count : true,
      active: false,
      loading: false,
      stale: false,
      unreadCount: data.unreadCount ?? 0,
      read: data.read ?? {},
      participants: data.participants ?? [],
      ...(data.lastMessageAt ? { lastMessageAt: data.lastMessageAt } : {}),
    });
    this.unsubscribers.push(
      ctx.onEvent((event) => this.handleEvent(event)),
      channel.state.subscribe(() => {
        if (!channel.state.getSnapshot().watching) this.markStale();
      }),
    );
  }

  get id(): string {
    return this.store.getSnapshot().id;
  }

  get state(): Store<ThreadSnapshot> {
    return this.store;
  }

  /** The thread's composer: edits and quotes only replies of this thread (chat-spec §4 Editing). */
  get composer(): MessageComposer {
    this.composerInstance ??= new MessageComposer(this.ctx, this.channel, {
      parentId: this.id,
      send: (draft, options) => this.sendReply(draft, options),
    });
    return this.composerInstance;
  }

  /** @internal Fresh data from a thread list answer: read state, participants, unread count, latest replies. */
  applyListData(data: ThreadListData): void {
    const state = this.store.getSnapshot();
    const latest = (data.latestReplies ?? []).map(received);
    this.store.patch({
      replies: sortUnique([
        ...state.replies,
        ...latest.filter((m) => !state.replies.some((r) => r.id === m.id)),
      ]),
      ...(data.read ? { read: data.read } : {}),
      ...(data.participants ? { participants: data.participants } : {}),
      ...(data.lastMessageAt ? { lastMessageAt: data.lastMessageAt } : {}),
      ...(data.unreadCount !== undefined && !state.active ? { unreadCount: data.unreadCount } : {}),
    });
  }

  /** Opens the thread on screen: it is marked read; a stale or never loaded thread loads. */
  activate(): void {
    this.store.patch({ active: true });
    this.markRead();
    const state = this.store.getSnapshot();
    if (state.stale || !this.loaded) void this.reload().catch(() => undefined);
  }

  /**
   * Marks the thread read for the connected user (`POST .../read` with `thread_id`), throttled to one
   * call per 1000 ms (chat-spec §9); the unread count resets at once.
   */
  markRead(): void {
    if (!this.channel.can('read-events')) return;
    this.store.patch({ unreadCount: 0 });
    this.readMarker.request();
  }

  deactivate(): void {
    this.store.patch({ active: false });
    this.composerInstance?.resetForSelect();
  }

  /** chat-spec §4: stale when the user stops watching the channel; an active thread reloads. */
  markStale(): void {
    if (this.store.getSnapshot().stale) return;
    this.store.patch({ stale: true });
    if (this.store.getSnapshot().active) void this.reload().catch(() => undefined);
  }

  /** Loads the parent and the newest page of replies, keeping local echo not yet on the server. */
  async reload(): Promise<void> {
    this.store.patch({ loading: true, error: undefined });
    try {
      if (this.channel.isInitialized && !this.channel.state.getSnapshot().watching) {
        await this.channel.watch();
      }
      const [parent, page] = await Promise.all([
        this.ctx.api.get<{ message: Message }>(`/messages/${enc(this.id)}`),
        this.fetchReplies({ limit: THREAD_REPLY_PAGE }),
      ]);
      const pending = this.store.getSnapshot().replies.filter((r) => r.status !== 'received');
      const replies = sortUnique([...page, ...pending.filter((p) => !page.some((m) => m.id === p.id))]);
      this.store.patch({
        parentMessage: mergeServerMessage(this.store.getSnapshot().parentMessage, parent.message),
        replies,
        hasPrev: page.length >= THREAD_REPLY_PAGE,
        loading: false,
        stale: false,
      });
      this.loaded = true;
    } catch (error) {
      this.store.patch({ loading: false, error: toChatApiError(error).message });
      throw error;
    }
  }

  /** Loads the 50 replies before the first held one. */
  async loadPrev(): Promise<void> {
    const state = this.store.getSnapshot();
    if (!state.hasPrev || state.loading) return;
    const first = state.replies.find((r) => r.status === 'received');
    this.store.patch({ loading: true });
    try {
      const page = await this.fetchReplies({
        limit: THREAD_REPLY_PAGE,
        ...(first ? { id_lt: first.id } : {}),
      });
      const current = this.store.getSnapshot();
      this.store.patch({
        replies: sortUnique([...page, ...current.replies]),
        hasPrev: page.length >= THREAD_REPLY_PAGE,
        loading: false,
      });
    } catch (error) {
      this.store.patch({ loading: false, error: toChatApiError(error).message });
      throw error;
    }
  }

  /**
   * Sends a reply with local echo: `sending`, then `received` or `failed` (kept for thread replies
   * too, chat-spec §3). Never throws for a server refusal.
   */
  async sendReply(draft: Omit<MessageDraft, 'parent_id'>, options?: SendOptions): Promise<LocalMessage> {
    const user = echoUser(this.ctx.currentUser());
    const at = echoTime(this.store.getSnapshot().replies.at(-1));
    const local = createLocalMessage({ ...draft, parent_id: this.id }, this.cid, user, at);
    this.channel.stopTyping(this.id);
    return deliverWithEcho(local, this.echoHost, options);
  }

  /** Sends a failed reply again with the same id, clearing its error. */
  resendReply(message: LocalMessage): Promise<LocalMessage> {
    return deliverWithEcho(forResend(message), this.echoHost);
  }

  dispose(): void {
    this.readMarker.dispose();
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    this.composerInstance?.dispose();
  }

  private get cid(): string {
    return this.channel.cid ?? this.store.getSnapshot().cid;
  }

  private get echoHost(): EchoHost {
    return {
      find: (id) => this.find(id),
      upsert: (m) => this.upsert(m),
      post: (message, options) =>
        this.ctx.api.post<SendMessageResponse>(
          `/channels/${enc(this.channel.type)}/${enc(this.channel.id ?? '')}/message`,
          { message, ...options },
        ),
      logger: this.ctx.logger,
    };
  }

  private handleEvent(event: ChatEvent): void {
    if (!('cid' in event) || event.cid !== this.cid) return;
    const state = this.store.getSnapshot();
    switch (event.type) {
      case 'message.new': {
        const m = event.message;
        if (m.parent_id !== this.id) return;
        const mine = (m.user?.id ?? m.user_id) === this.ctx.currentUser()?.id;
        const known = state.replies.some((r) => r.id === m.id);
        this.upsert(mergeServerMessage(this.find(m.id), m));
        this.store.patch({
          lastMessageAt: m.created_at,
          unreadCount: !mine && !known && !state.active ? state.unreadCount + 1 : state.unreadCount,
          participants: addParticipant(state.participants, m.user),
        });
        if (state.active && !mine && !known) this.markRead();
        return;
      }
      case 'message.read': {
        const threadId = (event as { thread_id?: unknown }).thread_id;
        if (threadId !== this.id || !event.user) return;
        const read: ReadState = {
          user: event.user,
          last_read: event.created_at,
          unread_messages: 0,
          ...(event.last_read_message_id ? { last_read_message_id: event.last_read_message_id } : {}),
        };
        const mine = event.user.id === this.ctx.currentUser()?.id;
        this.store.patch({
          read: { ...state.read, [event.user.id]: read },
          ...(mine ? { unreadCount: 0 } : {}),
        });
        return;
      }
      case 'message.updated':
      case 'message.deleted':
      case 'message.undeleted':
      case 'reaction.new':
      case 'reaction.updated':
      case 'reaction.deleted':
        this.applyUpdate(event);
        return;
      case 'channel.truncated':
        this.store.patch({ replies: [], active: false });
        return;
      default:
        return;
    }
  }

  private applyUpdate(event: Parameters<typeof applyMessageEvent>[1]): void {
    const state = this.store.getSnapshot();
    const me = this.ctx.currentUser()?.id;
    const id = event.message.id;
    if (id === state.id && state.parentMessage) {
      const parentMessage = applyMessageEvent(state.parentMessage, event, me);
      this.store.patch(parentMessage ? { parentMessage } : { parentMessage: undefined, active: false });
      return;
    }
    if (!state.replies.some((r) => r.id === id)) return;
    this.store.patch({
      replies: state.replies.flatMap((r) => {
        if (r.id !== id) return [r];
        const next = applyMessageEvent(r, event, me);
        return next ? [next] : [];
      }),
    });
  }

  private async sendMarkRead(): Promise<void> {
    try {
      await this.ctx.api.post(`/channels/${enc(this.channel.type)}/${enc(this.channel.id ?? '')}/read`, {
        thread_id: this.id,
      });
    } catch (error) {
      this.ctx.logger('warn', `mark thread read failed: ${toChatApiError(error).message}`, {
        thread: this.id,
      });
    }
  }

  private async fetchReplies(query: Record<string, string | number>): Promise<LocalMessage[]> {
    const answer = await this.ctx.api.get<{ messages: Message[] }>(`/messages/${enc(this.id)}/replies`, {
      query,
    });
    return answer.messages.map(received);
  }

  private find(id: string): LocalMessage | undefined {
    return this.store.getSnapshot().replies.find((r) => r.id === id);
  }

  private upsert(message: LocalMessage): void {
    const replies = this.store.getSnapshot().replies;
    const at = replies.findIndex((r) => r.id === message.id);
    const next =
      at >= 0 ? replies.map((r, i) => (i === at ? message : r)) : sortUnique([...replies, message]);
    this.store.patch({ replies: next });
  }
}

function addParticipant(
  participants: ThreadSnapshot['participants'],
  user: Message['user'],
): ThreadSnapshot['participants'] {
  if (!user || participants.some((p) => p.id === user.id)) return participants;
  return [...participants, user];
}

function sortUnique(messages: readonly LocalMessage[]): LocalMessage[] {
  const byId = new Map<string, LocalMessage>();
  for (const m of messages) byId.set(m.id, m);
  return [...byId.values()].sort(compareMessages);
}

function enc(part: string): string {
  return encodeURIComponent(part);
}
