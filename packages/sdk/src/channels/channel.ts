import {
  CHAT_LIMITS,
  type Channel,
  type ChannelState,
  type ChatEvent,
  type MessagePagination,
  type QueryChannelRequest,
  type SendMessageResponse,
  type UploadResponse,
} from '@caseroom/protocol';
import type { ClientContext } from '../client/context.js';
import {
  deliverWithEcho,
  echoTime,
  echoUser,
  forResend,
  type EchoHost,
  type SendOptions,
} from '../messages/local-echo.js';
import {
  createLocalMessage,
  received,
  type LocalMessage,
  type MessageDraft,
} from '../messages/local-message.js';
import {
  latestSet,
  PAGE_SIZE,
  selectLatest,
  selectSetWith,
  trimLatestForSelect,
  upsertMessage,
  withNewerPage,
  withOlderPage,
  withPageAround,
} from '../messages/message-sets.js';
import { MessageComposer } from '../composer/message-composer.js';
import { NOTICE_TEXTS } from '../notifications/notifications.js';
import { ReadMarker } from '../read/read-marker.js';
import { StateStore, type Store } from '../stores/store.js';
import { toChatApiError } from '../transport/errors.js';
import type { UploadOptions } from '../transport/multipart.js';
import { deleteUpload, uploadFile, type UploadBody } from '../transport/uploads.js';
import { TypingExpiry, TypingSender } from '../typing/typing.js';
import { ChannelListActions } from './channel-list-actions.js';
import {
  applyChannelEvent,
  emptyChannelSnapshot,
  hydrate,
  withSets,
  type ChannelSnapshot,
} from './channel-state.js';

/** Data for creating a channel: members and custom fields. */
export type ChannelData = { members?: string[] } & Record<string, unknown>;

/**
 * One channel: its observable state, queries, sending with local echo, read marking and typing.
 * Get instances from `client.channel(type, id)`; there is one per cid.
 */
export class ChatChannel extends ChannelListActions {
  readonly type: string;
  private channelId: string | undefined;
  protected readonly store: StateStore<ChannelSnapshot>;
  private readonly readMarker: ReadMarker;
  private readonly typingSender: TypingSender;
  private readonly typingExpiry: TypingExpiry;
  private watching: Promise<ChannelSnapshot> | undefined;
  private composerInstance: MessageComposer | undefined;
  private initialized = false;
  /** The newest message when read marking was last asked for: the read sent (maybe throttled) goes that far. */
  private readUpTo: string | undefined;

  constructor(
    ctx: ClientContext,
    type: string,
    id: string | undefined,
    private readonly data: ChannelData = {},
  ) {
    super(ctx);
    this.type = type;
    this.channelId = id;
    this.store = new StateStore(emptyChannelSnapshot(type, id));
    this.readMarker = new ReadMarker(() => void this.sendMarkRead());
    this.typingSender = new TypingSender(
      (eventType, parentId) => void this.sendTypingEvent(eventType, parentId),
    );
    this.typingExpiry = new TypingExpiry((userId) => {
      const event = {
        type: 'typing.stop',
        cid: this.cid ?? '',
        created_at: new Date().toISOString(),
        user: this.store.getSnapshot().typing[userId]?.user ?? { id: userId },
      } as ChatEvent;
      this.handleEvent(event);
      this.ctx.emitLocal(event);
    });
  }

  /** Observable state; snapshots are immutable. */
  get state(): Store<ChannelSnapshot> {
    return this.store;
  }

  get id(): string | undefined {
    return this.channelId;
  }

  get cid(): string | undefined {
    return this.channelId === undefined ? undefined : `${this.type}:${this.channelId}`;
  }

  /** True once a query answered (the state holds server data). */
  get isInitialized(): boolean {
    return this.initialized;
  }

  /** Creates the channel if needed, loads the newest page and starts watching it. */
  watch(options: { messageLimit?: number } = {}): Promise<ChannelSnapshot> {
    this.watching ??= this.query({
      watch: true,
      state: true,
      messages: { limit: options.messageLimit ?? PAGE_SIZE },
    })
      .then(() => this.store.getSnapshot())
      .finally(() => {
        this.watching = undefined;
      });
    return this.watching;
  }

  /** Raw channel query (chat-spec §7 POST /query); the answer replaces the latest message set. */
  async query(request: QueryChannelRequest): Promise<ChannelState> {
    this.store.patch({ loading: true, error: undefined });
    try {
      const body: QueryChannelRequest = { ...request };
      if (!this.initialized && Object.keys(this.data).length > 0) body.data = this.data;
      const path =
        this.channelId === undefined
          ? `/channels/${enc(this.type)}/query`
          : `/channels/${enc(this.type)}/${enc(this.channelId)}/query`;
      if (this.channelId === undefined && !this.data.members?.length) {
        throw new Error('Channel ID or channel members array have to be provided');
      }
      const answer = await this.ctx.api.post<ChannelState>(path, body);
      this.applyQueryAnswer(answer, request.messages?.limit);
      if (request.watch) this.store.patch({ watching: true });
      return answer;
    } catch (error) {
      const message = toChatApiError(error).message;
      this.store.patch({ loading: false, loadState: 'error', error: message });
      throw error;
    }
  }

  /** Loads older messages into the current set. */
  async loadPrev(limit: number = PAGE_SIZE): Promise<void> {
    const state = this.store.getSnapshot();
    const first = state.messages.find((m) => m.status === 'received');
    if (!state.hasPrev || state.loadState === 'loading-top' || !this.channelId) return;
    await this.page({ limit, ...(first ? { id_lt: first.id } : {}) }, 'loading-top', (sets, page) =>
      withOlderPage(sets, page, limit),
    );
  }

  /** Loads newer messages into the current set (after a jump into history). */
  async loadNext(limit: number = PAGE_SIZE): Promise<void> {
    const state = this.store.getSnapshot();
    const last = [...state.messages].reverse().find((m) => m.status === 'received');
    if (!state.hasNext || state.loadState === 'loading-bottom' || !last) return;
    await this.page({ limit, id_gt: last.id }, 'loading-bottom', (sets, page) =>
      withNewerPage(sets, page, limit),
    );
  }

  /** Shows the messages around `messageId`, from memory when a set holds it, else with `id_around`. */
  async jumpToMessage(messageId: string, limit: number = PAGE_SIZE): Promise<void> {
    const local = selectSetWith(this.store.getSnapshot().messageSets, messageId);
    if (local) {
      this.store.set(withSets(this.store.getSnapshot(), local));
      return;
    }
    await this.page({ limit, id_around: messageId }, 'loading-top', (sets, page) =>
      withPageAround(sets, page, messageId, limit),
    );
  }

  /** Back to the newest messages, reloading them when the latest set is not held in full. */
  async jumpToLatest(): Promise<void> {
    const local = selectLatest(this.store.getSnapshot().messageSets);
    if (local) {
      this.store.set(withSets(this.store.getSnapshot(), local));
      return;
    }
    await this.query({ state: true, messages: { limit: PAGE_SIZE } });
  }

  /**
   * Sends with local echo: the message appears at once with status `sending`, then becomes
   * `received` (the server copy) or `failed` (with the error). Never throws for a server refusal.
   */
  async sendMessage(draft: MessageDraft, options?: SendOptions): Promise<LocalMessage> {
    const user = echoUser(this.ctx.currentUser());
    const cid = this.cid;
    if (!cid) throw new Error('Call watch() before sending to a channel without an id');
    const newest = latestSet(this.store.getSnapshot().messageSets)?.messages.at(-1);
    const local = createLocalMessage(draft, cid, user, echoTime(newest));
    this.typingSender.stop(draft.parent_id);
    return deliverWithEcho(local, this.echoHost, options);
  }

  /** Sends a failed message again with the same id; the error is cleared while it runs. */
  resendMessage(message: LocalMessage): Promise<LocalMessage> {
    return deliverWithEcho(forResend(message), this.echoHost);
  }

  /** Marks the channel read, throttled to once per 1050 ms; paused after `markUnread`. */
  markRead(): void {
    if (!this.can('read-events')) return;
    // What the reader has now: a throttled read sent later reads no further (the reader may have left meanwhile).
    const newest = latestSet(this.store.getSnapshot().messageSets)?.messages.findLast(
      (m) => m.status === 'received',
    );
    if (this.readMarker.request()) {
      this.readUpTo = newest?.id;
      this.store.patch({ unreadCount: 0 });
    }
  }

  /** Marks from `messageId` on as unread and pauses read marking until `resumeReadMarking()`. */
  async markUnread(messageId: string): Promise<void> {
    this.readMarker.pause();
    try {
      await this.ctx.api.post(`${this.path()}/unread`, { message_id: messageId });
    } catch (error) {
      const failure = toChatApiError(error);
      // chat-spec §5: older than the window the server allows (CHAT_LIMITS.markUnreadWindow).
      const tooOld = failure.code === 4 && /only the latest \d+ messages/.test(failure.message);
      this.ctx.notify({
        text: tooOld
          ? NOTICE_TEXTS.markUnreadWindow.replace('{{count}}', String(CHAT_LIMITS.markUnreadWindow))
          : NOTICE_TEXTS.markUnreadError,
      });
      throw failure;
    }
  }

  resumeReadMarking(): void {
    this.readMarker.resume();
  }

  /** The user typed: sends typing.start at most every 2 s. */
  keystroke(parentId?: string): void {
    if (this.store.getSnapshot().channel?.config.typing_events === false) return;
    this.typingSender.keystroke(parentId);
  }

  stopTyping(parentId?: string): void {
    this.typingSender.stop(parentId);
  }

  /**
   * chat-spec §4 channel select: the typing list, the composer's quote and edit reset; cached latest
   * messages are trimmed to twice the page size; read marking resumes. (`client.setActiveChannel`
   * calls this, then loads and marks read.)
   */
  select(): void {
    const state = this.store.getSnapshot();
    this.typingExpiry.dispose();
    this.store.set({ ...withSets(state, trimLatestForSelect(state.messageSets)), typing: {} });
    this.composerInstance?.resetForSelect();
    this.readMarker.resume();
  }

  /** The main-list composer of this channel (chat-spec §5). */
  get composer(): MessageComposer {
    this.composerInstance ??= new MessageComposer(this.ctx, this);
    return this.composerInstance;
  }

  /**
   * Partial update of the channel's data (chat-spec §7 PATCH): `set` fields, `unset` names. The server answers
   * with `channel.updated`, which updates this channel's state; the answer is applied here too.
   */
  async updatePartial(set: Record<string, unknown>, unset: string[] = []): Promise<Channel> {
    const answer = await this.ctx.api.request<{ channel: Channel }>('PATCH', this.path(), {
      body: { set, unset },
    });
    const current = this.store.getSnapshot().channel;
    // As for channel.updated (chat-spec §4): merge the data, keeping the viewer's own_capabilities and hidden,
    // which capabilities.changed and the member events keep current.
    this.store.patch({
      channel: {
        ...current,
        ...answer.channel,
        ...(current ? { own_capabilities: current.own_capabilities, hidden: current.hidden } : {}),
      } as Channel,
    });
    return answer.channel;
  }

  /** Slow mode (chat-spec §4 Cooldown): members may send once every `seconds`; needs `set-channel-cooldown`. */
  enableSlowMode(seconds: number): Promise<Channel> {
    return this.updatePartial({ cooldown: seconds });
  }

  disableSlowMode(): Promise<Channel> {
    return this.updatePartial({ cooldown: 0 });
  }

  /**
   * Uploads a file to this channel (`POST /file`, multipart field `file`); `onProgress` and `signal` in `options`.
   * Answers `file` (the URL to put in an attachment's `asset_url`), `thumb_url`, `duration` and the facts the server
   * learnt. Rejects with a `ChatApiError` (code 22 or 4 for size and type refusals).
   */
  sendFile(
    file: UploadBody,
    name?: string,
    contentType?: string,
    options?: UploadOptions,
  ): Promise<UploadResponse> {
    return uploadFile(this.ctx.api, this.path(), 'file', file, name, contentType, options);
  }

  /** As `sendFile`, for images (`POST /image`: thumbnail and dimensions; the URL goes in `image_url`). */
  sendImage(
    file: UploadBody,
    name?: string,
    contentType?: string,
    options?: UploadOptions,
  ): Promise<UploadResponse> {
    return uploadFile(this.ctx.api, this.path(), 'image', file, name, contentType, options);
  }

  /** Deletes an upload by its URL (`DELETE /file?url=`). */
  deleteFile(url: string): Promise<void> {
    return deleteUpload(this.ctx.api, this.path(), 'file', url);
  }

  deleteImage(url: string): Promise<void> {
    return deleteUpload(this.ctx.api, this.path(), 'image', url);
  }

  async stopWatching(): Promise<void> {
    if (!this.channelId) return;
    await this.ctx.api.post(`${this.path()}/stop-watching`, {});
    this.store.patch({ watching: false });
  }

  /** Whether the connected user has `capability` here (unknown channels allow, the server decides). */
  can(capability: string): boolean {
    const channel = this.store.getSnapshot().channel;
    return channel ? channel.own_capabilities.includes(capability) : true;
  }

  /** @internal Applies a query answer from this channel's or a list's query. */
  applyQueryAnswer(answer: ChannelState, limit: number = PAGE_SIZE): void {
    if (this.channelId === undefined) {
      this.channelId = answer.channel.id;
      this.ctx.registerChannel(answer.channel.cid, this);
    }
    this.initialized = true;
    if (typeof answer.channel.last_seq === 'number') {
      this.ctx.streamLoaded?.(answer.channel.cid, answer.channel.last_seq);
    }
    const next = hydrate(this.store.getSnapshot(), answer, this.ctx.currentUser()?.id, limit);
    this.store.set({ ...next, loading: false, loadState: 'idle' });
  }

  /** @internal Applies a socket event addressed to this channel. */
  handleEvent(event: ChatEvent): void {
    const me = this.ctx.currentUser()?.id;
    if (event.type === 'typing.start' && event.user && event.user.id !== me)
      this.typingExpiry.started(event.user.id);
    if (event.type === 'typing.stop' && event.user) this.typingExpiry.stopped(event.user.id);
    if (event.type === 'message.new' && event.message.user) this.typingExpiry.stopped(event.message.user.id);
    this.store.set(applyChannelEvent(this.store.getSnapshot(), event, me));
  }

  /** @internal */
  dispose(): void {
    this.readMarker.dispose();
    this.typingExpiry.dispose();
    this.composerInstance?.dispose();
  }

  private get echoHost(): EchoHost {
    return {
      find: (id) => this.findMessage(id),
      upsert: (m) => this.upsert(m),
      post: (message, options) =>
        this.ctx.api.post<SendMessageResponse>(`${this.path()}/message`, { message, ...options }),
      logger: this.ctx.logger,
    };
  }

  /** The held copy of a message of this channel's main list. */
  findMessage(id: string): LocalMessage | undefined {
    for (const set of this.store.getSnapshot().messageSets) {
      const found = set.messages.find((m) => m.id === id);
      if (found) return found;
    }
    return undefined;
  }

  private upsert(message: LocalMessage): void {
    const state = this.store.getSnapshot();
    this.store.set(withSets(state, upsertMessage(state.messageSets, message)));
  }

  private async page(
    messages: MessagePagination,
    loadState: ChannelSnapshot['loadState'],
    merge: (sets: ChannelSnapshot['messageSets'], page: LocalMessage[]) => ChannelSnapshot['messageSets'],
  ): Promise<void> {
    this.store.patch({ loadState });
    try {
      // Only the page's messages are used: no member or watcher list asked for (chat-spec: limit 0).
      const answer = await this.ctx.api.post<ChannelState>(`${this.path()}/query`, {
        state: true,
        messages,
        members: { limit: 0 },
        watchers: { limit: 0 },
      });
      const state = this.store.getSnapshot();
      this.store.set({
        ...withSets(state, merge(state.messageSets, answer.messages.map(received))),
        loadState: 'idle',
      });
    } catch (error) {
      this.store.patch({ loadState: 'error', error: toChatApiError(error).message });
      throw error;
    }
  }

  private async sendMarkRead(): Promise<void> {
    try {
      await this.ctx.api.post(`${this.path()}/read`, this.readUpTo ? { message_id: this.readUpTo } : {});
    } catch (error) {
      this.ctx.logger('warn', `mark read failed: ${toChatApiError(error).message}`, { cid: this.cid });
    }
  }

  private async sendTypingEvent(type: 'typing.start' | 'typing.stop', parentId?: string): Promise<void> {
    if (!this.channelId) return;
    try {
      await this.ctx.api.post(`${this.path()}/event`, {
        event: { type, ...(parentId ? { parent_id: parentId } : {}) },
      });
    } catch (error) {
      this.ctx.logger('debug', `typing event failed: ${toChatApiError(error).message}`);
    }
  }

  protected path(): string {
    if (this.channelId === undefined) throw new Error('Call watch() first: the channel id is not known yet');
    return `/channels/${enc(this.type)}/${enc(this.channelId)}`;
  }
}

function enc(part: string): string {
  return encodeURIComponent(part);
}
