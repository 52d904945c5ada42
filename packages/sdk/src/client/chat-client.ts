import type { AppSettings, ChatEvent, Message, OgResponse, OwnUser } from '@caseroom/protocol';
import { ChatChannel, type ChannelData } from '../channels/channel.js';
import { ChannelList, type ChannelListContext, type ChannelListOptions } from '../channels/channel-list.js';
import type { LocalMessage } from '../messages/local-message.js';
import { Devices } from './devices.js';
import { FileCache } from '../files/file-cache.js';
import { MessageActions } from '../messages/message-actions.js';
import { DeliveryReporter } from '../read/delivery-reporter.js';
import { UnreadTotal, type UnreadTotals } from '../read/unread-total.js';
import { ThreadManager } from '../threads/thread-manager.js';
import { NOTICE_TEXTS, Notifications } from '../notifications/notifications.js';
import { StateStore, type Store } from '../stores/store.js';
import { ApiClient, type FetchLike } from '../transport/api-client.js';
import type { XhrConstructor } from '../transport/multipart.js';
import { getAppSettings } from '../transport/uploads.js';
import { silentLogger, type Logger } from '../transport/logger.js';
import { LongPollSocket } from '../transport/long-poll.js';
import {
  SocketConnection,
  type HealthCheck,
  type SocketStatus,
  type TransportKind,
} from '../transport/socket-connection.js';
import { TokenManager, type TokenProvider } from '../transport/token-manager.js';
import type { WebSocketConstructor } from '../transport/websocket.js';
import { EventEmitter, type EventHandler } from './event-emitter.js';
import { EventStream } from './event-stream.js';
import { hookBrowserNetwork } from './browser-network.js';
import { withOwnUpdate } from './own-user.js';
import { Recovery } from './recovery.js';
import { connectUrl } from './urls.js';

export interface ChatClientOptions {
  apiKey: string;
  /** `/chat` or `http://host:port/chat`. */
  baseUrl: string;
  /** Default `globalThis.WebSocket`; Node tests pass the `ws` package's class. */
  WebSocket?: WebSocketConstructor;
  /** Default `globalThis.fetch`. */
  fetch?: FetchLike;
  /**
   * Uploads use XMLHttpRequest for progress events: default `globalThis.XMLHttpRequest` when no `fetch` is given
   * (browsers), none when a `fetch` is given (tests, Node: uploads then go through that `fetch`).
   */
  XMLHttpRequest?: XhrConstructor;
  logger?: Logger;
  /** HTTP timeout, default 3 s. */
  timeoutMs?: number;
  /** Initial connect timeout, default 15 s. */
  connectTimeoutMs?: number;
  /** Randomness of the reconnect backoff (tests). */
  random?: () => number;
  /**
   * Report delivered messages with `POST /channels/delivered` (batches of at most 100 after 1 s).
   * Off by default: the Caseroom server does not have the endpoint yet.
   */
  deliveryReports?: boolean;
  /**
   * Fall back to long polling (`GET /longpoll`, 30 s polls, 8 s to open) when the first WebSocket has
   * no answer within 6 s or fails on the network (chat-spec §4, §9). Off by default.
   */
  longPollFallback?: boolean;
}

export interface ConnectionSnapshot {
  status: SocketStatus;
  /** True while the socket is healthy (connected and hearing from the server). */
  online: boolean;
  connectionId?: string;
  error?: string;
  /** What carries the connection once connected. */
  transport?: TransportKind;
}

export interface UserToConnect {
  id: string;
  name?: string;
  image?: string;
}

/**
 * The chat client: one connection for one user, the channels it knows (one instance per cid),
 * live channel lists, event dispatch and connection recovery.
 */
export class ChatClient {
  readonly api: ApiClient;
  readonly logger: Logger;
  readonly notifications = new Notifications();
  /** Edit, delete, pin, react and flag any held message (chat-spec §4, §7 Messages). */
  readonly messageActions: MessageActions;
  /** The user's push devices (add/list/remove). */
  readonly devices: Devices;
  /** The user's threads, the unread thread count and the thread open on screen. */
  readonly threads: ThreadManager;
  /** Stored chat files: images as cached object URLs, media URLs with the token (files/file-cache). */
  readonly files: FileCache;
  private readonly delivery: DeliveryReporter | undefined;
  private readonly connectionStore = new StateStore<ConnectionSnapshot>({ status: 'idle', online: false });
  private readonly meStore = new StateStore<OwnUser | undefined>(undefined);
  private readonly activeStore = new StateStore<ChatChannel | undefined>(undefined);
  private readonly emitter: EventEmitter;
  private readonly internal = new Set<EventHandler>();
  private readonly channels = new Map<string, ChatChannel>();
  private readonly lists = new Set<ChannelList>();
  private tokens = new TokenManager(undefined);
  private socket: SocketConnection | undefined;
  private userId: string | undefined;
  private lastEventAt: string | undefined;
  private readonly recovery: Recovery;
  private readonly unreadTotal: UnreadTotal;
  /** Per-channel sequences: in-order events, gaps filled through `/sync` (client/event-stream). */
  readonly stream: EventStream;
  private removeBrowserHooks: (() => void) | undefined;

  constructor(private readonly options: ChatClientOptions) {
    this.logger = options.logger ?? silentLogger;
    this.emitter = new EventEmitter((error, type) =>
      this.logger('error', `event handler for ${type} threw: ${String(error)}`),
    );
    const fetchImpl = options.fetch ?? globalThis.fetch?.bind(globalThis);
    this.api = new ApiClient({
      apiKey: options.apiKey,
      baseUrl: options.baseUrl,
      fetch: (input, init) => fetchImpl(input, init),
      tokens: () => this.tokens,
      logger: this.logger,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      identity: () => ({ userId: this.userId, connectionId: this.socket?.id }),
      xhr:
        options.XMLHttpRequest ??
        (options.fetch ? undefined : (globalThis as { XMLHttpRequest?: XhrConstructor }).XMLHttpRequest),
    });
    this.messageActions = new MessageActions(this.context);
    this.devices = new Devices(this.api, () => this.userId);
    this.threads = new ThreadManager(this.context);
    this.files = new FileCache({
      apiKey: options.apiKey,
      baseUrl: options.baseUrl,
      fetch: (input, init) => fetchImpl(input, init),
      tokens: () => this.tokens,
    });
    this.delivery = options.deliveryReports
      ? new DeliveryReporter((batch) =>
          this.api.post('/channels/delivered', { latest_delivered_messages: batch }),
        )
      : undefined;
    this.stream = new EventStream({
      api: this.api,
      logger: this.logger,
      apply: (event) => this.dispatch(event),
    });
    this.unreadTotal = new UnreadTotal({ api: this.api, logger: this.logger, userId: () => this.userId });
    // `me` carries the same totals, for readers of the server's OwnUser shape.
    this.unreadTotal.totals.subscribe(() => {
      const me = this.meStore.getSnapshot();
      if (me) this.meStore.set({ ...me, ...this.unreadTotal.totals.getSnapshot() });
    });
    this.recovery = new Recovery({
      api: this.api,
      logger: this.logger,
      stream: this.stream,
      channels: () => this.channels.values(),
      lists: () => this.lists,
      activeChannel: () => this.activeStore.getSnapshot(),
      lastEventAt: () => this.lastEventAt,
      recovered: () => {
        // Channels the client does not hold had messages meanwhile: their counts come from the server again.
        void this.unreadTotal.refresh();
        this.emitLocal({ type: 'connection.recovered', online: true });
      },
    });
  }

  /** Connection status; `online` is true while the socket is healthy. */
  get connection(): Store<ConnectionSnapshot> {
    return this.connectionStore;
  }

  /** The connected user, from `health.check`; its unread totals follow {@link unread}. */
  get me(): Store<OwnUser | undefined> {
    return this.meStore;
  }

  /**
   * The user's unread totals (messages and channels, muted channels left out), kept up by the client from its
   * channels and the events (read/unread-total): for a tab title or an app badge.
   */
  get unread(): Store<UnreadTotals> {
    return this.unreadTotal.totals;
  }

  /** The channel the user is looking at; recovery reloads it. */
  get activeChannel(): Store<ChatChannel | undefined> {
    return this.activeStore;
  }

  /** Connects as `user`; resolves once the server's `health.check` arrived. */
  connectUser(user: UserToConnect, tokenProvider: TokenProvider): Promise<OwnUser> {
    return this.connect(user, tokenProvider);
  }

  /** Connects without a token (`Auth-Type: anonymous`). */
  connectAnonymousUser(): Promise<OwnUser> {
    return this.connect({ id: `anon-${crypto.randomUUID()}` }, undefined);
  }

  /** Closes the connection (code 1000) and forgets the user, their channels and lists. */
  async disconnectUser(): Promise<void> {
    this.socket?.disconnect();
    this.socket = undefined;
    this.removeBrowserHooks?.();
    this.removeBrowserHooks = undefined;
    for (const list of this.lists) list.dispose();
    this.lists.clear();
    this.threads.setActive(undefined);
    this.files.clear();
    this.delivery?.dispose();
    for (const channel of this.channels.values()) channel.dispose();
    this.channels.clear();
    this.activeStore.set(undefined);
    this.meStore.set(undefined);
    this.unreadTotal.reset();
    this.userId = undefined;
    this.lastEventAt = undefined;
    this.stream.reset();
    this.notifications.clear();
    this.connectionStore.set({ status: 'disconnected', online: false });
  }

  /** `GET /app`: the image and file upload configurations (chat-spec §3), fetched once per client. */
  getAppSettings(): Promise<AppSettings> {
    return getAppSettings(this.api);
  }

  /** The channel `type:id` (same instance per cid). Without an id, a distinct channel of `data.members`. */
  channel(type: string, id?: string, data?: ChannelData): ChatChannel {
    if (!this.userId) throw new Error('Call connectUser or connectAnonymousUser before creating a channel');
    if (id !== undefined) {
      const cid = `${type}:${id}`;
      let channel = this.channels.get(cid);
      if (!channel) {
        channel = new ChatChannel(this.context, type, id, data);
        this.channels.set(cid, channel);
        this.unreadTotal.track(channel);
      }
      return channel;
    }
    if (!data?.members?.length) throw new Error('Channel ID or channel members array have to be provided');
    const members = [...new Set(data.members)].sort();
    const known = [...this.channels.values()].find((c) => {
      const ids = c.state
        .getSnapshot()
        .members.map((m) => m.user_id)
        .sort();
      return c.type === type && ids.length === members.length && ids.every((m, i) => m === members[i]);
    });
    return known ?? new ChatChannel(this.context, type, undefined, { ...data, members });
  }

  /** A live list of channels matching `filter`; call `load()` to fetch, `dispose()` when done. */
  channelList(options: ChannelListOptions): ChannelList {
    const list = new ChannelList(this.context, options);
    this.lists.add(list);
    const dispose = list.dispose.bind(list);
    list.dispose = () => {
      this.lists.delete(list);
      dispose();
    };
    return list;
  }

  /**
   * Marks `channel` as the one on screen (chat-spec §4 active channel selection): the open thread
   * closes, the channel's quote, edit and typing lists reset, cached latest messages are trimmed to
   * twice the page size, messages load when the channel is not watched yet, and it is marked read.
   */
  setActiveChannel(channel: ChatChannel | undefined): void {
    if (this.activeStore.getSnapshot() === channel) return;
    this.threads.setActive(undefined);
    this.activeStore.set(channel);
    if (!channel) return;
    channel.select();
    if (!channel.state.getSnapshot().watching) {
      void channel
        .watch()
        .then(() => channel.markRead())
        .catch((error: unknown) =>
          this.logger('warn', `loading the active channel failed: ${String(error)}`),
        );
    } else channel.markRead();
  }

  /** Listens to server and client events of `type`, or every event with `'*'`. */
  on: EventEmitter['on'] = (type: string, handler: EventHandler<never>) =>
    this.emitter.on(type, handler as EventHandler);

  /** Catches up after a dropped connection: `/sync`, list re-query (limit 30), active channel reload. */
  recover(): Promise<void> {
    return this.recovery.run();
  }

  /** `GET /chat/og`: the link preview of a page (chat-spec §7 enrichURL); rejects (code 4) when it has none. */
  enrichURL(url: string): Promise<OgResponse> {
    return this.api.get<OgResponse>('/og', { query: { url } });
  }

  /** The held copy of a message in any channel or thread. */
  findMessage(id: string): LocalMessage | undefined {
    for (const channel of this.channels.values()) {
      const found = channel.findMessage(id);
      if (found) return found;
    }
    for (const thread of this.threads.state.getSnapshot().threads) {
      const found = thread.state.getSnapshot().replies.find((r) => r.id === id);
      if (found) return found;
    }
    const active = this.threads.active.getSnapshot()?.state.getSnapshot();
    return (
      active?.replies.find((r) => r.id === id) ??
      (active?.parentMessage?.id === id ? active.parentMessage : undefined)
    );
  }

  /** `GET /unread`: the user's unread totals (`me.total_unread_count`, `me.unread_channels`) fetched afresh. */
  async refreshUnreadTotals(): Promise<void> {
    // The per-channel counts of `client.unread` (read/unread-total), which `me` follows.
    await this.unreadTotal.refresh();
  }

  /** @internal Routes one event: channel state, lists, then `on` listeners. */
  dispatch(event: ChatEvent, local = false): void {
    if (
      !local &&
      typeof event.created_at === 'string' &&
      event.type !== 'connection.changed' &&
      event.type !== 'connection.recovered'
    ) {
      this.lastEventAt = event.created_at;
    }
    const me = this.meStore.getSnapshot();
    if (me && event.type === 'user.updated') this.meStore.set(withOwnUpdate(me, event.user));
    const cid = 'cid' in event && typeof event.cid === 'string' ? event.cid : undefined;
    if (cid) this.channels.get(cid)?.handleEvent(event);
    this.unreadTotal.apply(event);
    // User data is shown in every channel: members, read state and message authors.
    if (event.type === 'user.updated' || event.type === 'notification.channel_mutes_updated')
      for (const channel of this.channels.values()) channel.handleEvent(event);
    // Muted channels leave the user's unread totals (chat-spec §7 mute): the event does not carry the new ones.
    if (!local && event.type === 'notification.channel_mutes_updated') void this.refreshUnreadTotals();
    if (!local && event.type === 'message.new') this.reportDelivered(event.message);
    for (const handler of [...this.internal]) handler(event);
    if (!local) this.emitter.emit(event);
  }

  private get context(): ChannelListContext & {
    findMessage(id: string): LocalMessage | undefined;
    applyLocally(event: ChatEvent): void;
  } {
    return {
      findMessage: (id) => this.findMessage(id),
      applyLocally: (event) => this.dispatch(event, true),
      activeChannel: () => this.activeStore.getSnapshot(),
      setActiveChannel: (channel) => this.setActiveChannel(channel),
      messageActions: () => this.messageActions,
      api: this.api,
      logger: this.logger,
      currentUser: () => this.meStore.getSnapshot(),
      streamLoaded: (cid, seq) => this.stream.loaded(cid, seq),
      registerChannel: (cid, channel) => {
        if (this.channels.has(cid)) return;
        this.channels.set(cid, channel as ChatChannel);
        this.unreadTotal.track(channel as ChatChannel);
      },
      emitLocal: (event) => this.emitter.emit(event),
      notify: (notice) => this.notifications.add(notice),
      dismiss: (id) => this.notifications.remove(id),
      channelByCid: (cid) => {
        const at = cid.indexOf(':');
        return this.channel(cid.slice(0, at), cid.slice(at + 1));
      },
      onEvent: (handler) => {
        this.internal.add(handler);
        return () => {
          this.internal.delete(handler);
        };
      },
    };
  }

  private async connect(user: UserToConnect, provider: TokenProvider | undefined): Promise<OwnUser> {
    if (this.socket) throw new Error('already connected; call disconnectUser() first');
    const WebSocketImpl =
      this.options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!WebSocketImpl)
      throw new Error('no WebSocket implementation: pass options.WebSocket (e.g. the ws package)');
    this.userId = user.id;
    this.tokens = new TokenManager(provider);
    const anonymous = provider === undefined;
    const socket = new SocketConnection({
      WebSocket: WebSocketImpl,
      tokens: this.tokens,
      logger: this.logger,
      ...(this.options.random ? { random: this.options.random } : {}),
      ...(this.options.connectTimeoutMs !== undefined
        ? { connectTimeoutMs: this.options.connectTimeoutMs }
        : {}),
      buildUrl: async () =>
        connectUrl(this.options.baseUrl, {
          api_key: this.options.apiKey,
          user_id: user.id,
          ...(anonymous ? { auth_type: 'anonymous' } : { authorization: (await this.tokens.get()) ?? '' }),
        }),
      ...(this.options.longPollFallback ? { longPoll: () => new LongPollSocket(this.api) } : {}),
      onEvent: (event) => this.stream.receive(event),
      onStatus: (status, detail) => this.handleStatus(status, detail),
      onHealthy: (health, recovered) => this.handleHealthy(health, user, recovered),
    });
    this.socket = socket;
    this.connectionStore.set({ status: 'connecting', online: false });
    try {
      await socket.connect();
    } catch (error) {
      this.socket = undefined;
      this.userId = undefined;
      this.notifications.add({ id: 'connection', text: NOTICE_TEXTS.connectError, permanent: true });
      throw error;
    }
    this.removeBrowserHooks = hookBrowserNetwork(socket);
    return this.meStore.getSnapshot() as OwnUser;
  }

  private handleStatus(status: SocketStatus, detail: { connectionId?: string; error?: string }): void {
    const previous = this.connectionStore.getSnapshot();
    this.connectionStore.set({
      status,
      online: status === 'connected',
      ...(detail.connectionId ? { connectionId: detail.connectionId } : {}),
      ...(detail.error ? { error: detail.error } : {}),
      ...(status === 'connected' && this.socket ? { transport: this.socket.transport } : {}),
    });
    if (status === 'disconnected' && previous.status === 'connected' && this.socket) {
      this.notifications.add({ id: 'connection', text: NOTICE_TEXTS.reconnecting, permanent: true });
      this.emitLocal({ type: 'connection.changed', online: false });
    }
  }

  private handleHealthy(health: HealthCheck, user: UserToConnect, recovered: boolean): void {
    const previous = this.meStore.getSnapshot();
    const me = health.me ?? previous ?? { ...user, total_unread_count: 0, unread_channels: 0 };
    // After a reconnect the client's own totals stand until the recovery fetched the counts again.
    this.meStore.set(recovered ? { ...me, ...this.unreadTotal.totals.getSnapshot() } : me);
    this.lastEventAt ??= health.created_at;
    if (!recovered) {
      this.unreadTotal.start(health.me);
      return;
    }
    this.notifications.remove('connection');
    this.emitLocal({ type: 'connection.changed', online: true });
    void this.recover();
  }

  private reportDelivered(message: Message): void {
    if (!this.delivery || (message.user?.id ?? message.user_id) === this.userId) return;
    this.delivery.delivered(message.cid, message.id);
  }

  private emitLocal(partial: { type: 'connection.changed' | 'connection.recovered'; online: boolean }): void {
    // Through dispatch: threads turn stale on a drop and reload on recovery.
    this.dispatch({ ...partial, created_at: new Date().toISOString() } as ChatEvent);
  }
}
