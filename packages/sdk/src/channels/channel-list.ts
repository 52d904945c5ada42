import {
  CHAT_LIMITS,
  type Channel,
  type ChannelMember,
  type ChatEvent,
  type QueryChannelsResponse,
} from '@caseroom/protocol';
import type { ClientContext } from '../client/context.js';
import type { LocalMessage } from '../messages/local-message.js';
import { NOTICE_TEXTS } from '../notifications/notifications.js';
import { StateStore, type Store } from '../stores/store.js';
import { toChatApiError } from '../transport/errors.js';
import type { ChatChannel } from './channel.js';
import type { ChannelSnapshot } from './channel-state.js';
import { channelComparator, type ChannelSort } from './channel-sort.js';
import { matchesFilter, type ChannelFilter } from './filter.js';

const LOAD_ERROR_NOTICE = 'channels-load-error';

export type { ChannelSort } from './channel-sort.js';

export interface ChannelListOptions {
  filter: ChannelFilter;
  /** Default: last_message_at descending (chat-spec §7). */
  sort?: ChannelSort;
  /** Page size; default 25. */
  limit?: number;
  /** Messages loaded per channel; default 25. */
  messageLimit?: number;
}

/** One row of the list: the parts a channel preview shows, plus the live channel. */
export interface ChannelListItem {
  cid: string;
  channel: Channel;
  members: readonly ChannelMember[];
  lastMessage?: LocalMessage;
  unreadCount: number;
  /** The viewer's membership: `pinned_at`, `archived_at` (absent before a query answered for a member). */
  membership?: ChannelMember;
  /** The viewer muted the channel (its unread messages leave the totals). */
  muted: boolean;
  /** The channel instance (same as `client.channel(type, id)`). */
  instance: ChatChannel;
}

export interface ChannelListSnapshot {
  status: 'idle' | 'loading' | 'ready' | 'error';
  channels: readonly ChannelListItem[];
  hasNext: boolean;
  loadingMore: boolean;
  error?: string;
  /** Channels the user is invited to and has not answered (chat-spec §4 pending invites). */
  pendingInvites: readonly Channel[];
}

/** What a list needs from the client. */
export interface ChannelListContext extends ClientContext {
  channelByCid(cid: string): ChatChannel;
  onEvent(handler: (event: ChatEvent) => void): () => void;
}

/**
 * A paginated, live list of channels matching a filter (chat-spec §4 Channel): new messages move a
 * channel to the top; hidden, deleted or removed channels leave; channels matching the filter join
 * when a message, an added-to-channel or a visible event arrives.
 */
export class ChannelList {
  private readonly store = new StateStore<ChannelListSnapshot>({
    status: 'idle',
    channels: [],
    hasNext: false,
    loadingMore: false,
    pendingInvites: [],
  });
  private channels: ChatChannel[] = [];
  private readonly channelSubscriptions = new Map<ChatChannel, () => void>();
  private readonly items = new WeakMap<ChannelSnapshot, ChannelListItem>();
  private readonly adding = new Set<string>();
  private readonly unsubscribeEvents: () => void;
  private disposed = false;

  constructor(
    private readonly ctx: ChannelListContext,
    readonly options: ChannelListOptions,
  ) {
    this.unsubscribeEvents = ctx.onEvent((event) => this.handleEvent(event));
  }

  get state(): Store<ChannelListSnapshot> {
    return this.store;
  }

  /** Loads the first page (replacing what the list holds). */
  async load(): Promise<void> {
    await this.fetchPage(0, this.limit, 'replace');
  }

  /** Loads the next page. */
  async loadMore(): Promise<void> {
    const state = this.store.getSnapshot();
    if (!state.hasNext || state.loadingMore || state.status === 'loading') return;
    await this.fetchPage(this.channels.length, this.limit, 'append');
  }

  /** Re-queries after a connection recovery (chat-spec §9: limit 30), keeping the list on failure. */
  async reload(limit: number = CHAT_LIMITS.recoveryChannelLimit): Promise<void> {
    await this.fetchPage(0, limit, 'replace', true);
  }

  dispose(): void {
    this.disposed = true;
    this.unsubscribeEvents();
    for (const unsubscribe of this.channelSubscriptions.values()) unsubscribe();
    this.channelSubscriptions.clear();
  }

  private get limit(): number {
    return this.options.limit ?? CHAT_LIMITS.channelPageSize;
  }

  private async fetchPage(
    offset: number,
    limit: number,
    mode: 'replace' | 'append',
    quiet = false,
  ): Promise<void> {
    if (mode === 'replace' && !quiet) this.store.patch({ status: 'loading', error: undefined });
    if (mode === 'append') this.store.patch({ loadingMore: true });
    try {
      const messageLimit = this.options.messageLimit ?? CHAT_LIMITS.messagePageSize;
      const answer = await this.ctx.api.post<QueryChannelsResponse>('/channels', {
        filter_conditions: this.options.filter,
        sort: this.options.sort ?? [{ field: 'last_message_at', direction: -1 }],
        limit,
        offset,
        state: true,
        watch: true,
        presence: false,
        message_limit: messageLimit,
      });
      if (this.disposed) return;
      const fetched = answer.channels.map((state) => {
        const channel = this.ctx.channelByCid(state.channel.cid);
        channel.applyQueryAnswer(state, messageLimit);
        return channel;
      });
      const next =
        mode === 'replace'
          ? fetched
          : [...this.channels, ...fetched.filter((c) => !this.channels.includes(c))];
      if (mode === 'replace') this.ctx.dismiss(LOAD_ERROR_NOTICE);
      this.setChannels(next, {
        status: 'ready',
        hasNext: answer.channels.length >= limit,
        loadingMore: false,
        error: undefined,
      });
    } catch (error) {
      const message = toChatApiError(error).message;
      this.ctx.logger('warn', `query channels failed: ${message}`);
      if (quiet) return;
      this.ctx.notify({ id: LOAD_ERROR_NOTICE, text: NOTICE_TEXTS.channelsLoadError, permanent: true });
      this.store.patch(
        mode === 'append' ? { loadingMore: false, error: message } : { status: 'error', error: message },
      );
      throw error;
    }
  }

  private handleEvent(event: ChatEvent): void {
    if (this.store.getSnapshot().status === 'idle') return;
    if (event.type === 'notification.channel_mutes_updated') {
      this.recheck(event.me.channel_mutes.map((m) => m.cid));
      return;
    }
    const cid = eventCid(event);
    if (!cid) return;
    const me = this.ctx.currentUser()?.id;
    this.handleChannelEvent(event, cid, me);
    if (this.has(cid)) this.resort();
  }

  private handleChannelEvent(event: ChatEvent, cid: string, me: string | undefined): void {
    switch (event.type) {
      case 'notification.invited':
      case 'notification.invite_accepted':
      case 'notification.invite_rejected':
        this.trackInvite(event.type, cid, event.channel);
        return;
      case 'message.new':
      case 'notification.message_new':
        if (event.type === 'message.new' && event.message.parent_id && !event.message.show_in_channel) return;
        if (this.has(cid)) this.moveToTop(cid);
        else void this.addIfMatches(cid);
        return;
      case 'notification.added_to_channel':
        // Events of the channel did not reach the user before: its held state may be stale.
        if (!this.has(cid)) void this.addIfMatches(cid, true);
        return;
      case 'channel.visible':
        if (!this.has(cid)) void this.addIfMatches(cid);
        return;
      case 'channel.updated':
        // Its data (or the viewer's mute) may have moved it into or out of the list's filter.
        this.recheck([cid]);
        return;
      case 'member.updated':
        // The viewer's own pin or archive may have moved it into or out of the list's filter.
        if (event.member?.user_id === me) this.recheck([cid]);
        return;
      case 'channel.hidden':
      case 'channel.deleted':
      case 'notification.removed_from_channel':
        this.remove(cid);
        return;
      case 'member.removed':
        if ((event.member?.user_id ?? event.user?.id) === me) this.remove(cid);
        return;
      default:
        return;
    }
  }

  /**
   * Channels held that no longer match leave; `cids` not held that now match join. A channel leaving a filter
   * (archived, unpinned) is still the user's: the active channel stays active, unlike one hidden or left.
   */
  private recheck(cids: readonly string[]): void {
    const leaving = this.channels.filter((c) => !this.matches(c));
    if (leaving.length > 0) this.setChannels(this.channels.filter((c) => !leaving.includes(c)));
    for (const cid of cids) if (!this.has(cid)) void this.addIfMatches(cid);
  }

  /** The comparator of a sort other than the default one, when the client can read its fields. */
  private get comparator() {
    if (this.sortsByLastMessage || !this.options.sort) return undefined;
    return channelComparator(this.options.sort);
  }

  /** Orders the held channels by the list's sort after a change (pinned first, by unread...). */
  private resort(): void {
    const compare = this.comparator;
    if (!compare) return;
    const subjects = this.channels.map((channel) => ({ channel, subject: sortSubject(channel) }));
    const sorted = [...subjects].sort((a, b) => compare(a.subject, b.subject)).map((s) => s.channel);
    if (sorted.some((c, i) => c !== this.channels[i])) this.setChannels(sorted);
  }

  private has(cid: string): boolean {
    return this.channels.some((c) => c.cid === cid);
  }

  private get sortsByLastMessage(): boolean {
    const first = this.options.sort?.[0];
    return !first || (first.field === 'last_message_at' && first.direction === -1);
  }

  private moveToTop(cid: string): void {
    if (!this.sortsByLastMessage) return;
    const channel = this.channels.find((c) => c.cid === cid);
    if (!channel || this.channels[0] === channel) return;
    this.setChannels([channel, ...this.channels.filter((c) => c !== channel)]);
  }

  /** chat-spec §4: when the active channel leaves the list the first becomes active, or none. */
  private remove(cid: string): void {
    if (!this.has(cid)) return;
    const remaining = this.channels.filter((c) => c.cid !== cid);
    this.setChannels(remaining);
    if (this.ctx.activeChannel()?.cid === cid) this.ctx.setActiveChannel(remaining[0]);
  }

  private trackInvite(type: string, cid: string, channel: Channel | undefined): void {
    const invites = this.store.getSnapshot().pendingInvites.filter((c) => c.cid !== cid);
    if (type === 'notification.invited' && channel) {
      this.store.patch({ pendingInvites: [...invites, channel] });
      return;
    }
    this.store.patch({ pendingInvites: invites });
    if (type === 'notification.invite_accepted' && !this.has(cid)) void this.addIfMatches(cid, true);
  }

  /**
   * Fetches the channel when it is not held (or `refresh`) and adds it at its place when it matches the
   * list's filter.
   */
  private async addIfMatches(cid: string, refresh = false): Promise<void> {
    if (this.adding.has(cid)) return;
    this.adding.add(cid);
    try {
      const channel = this.ctx.channelByCid(cid);
      if (refresh || !channel.isInitialized) await channel.watch();
      if (this.disposed || this.has(cid) || !this.matches(channel)) return;
      const next = this.withInserted(channel);
      if (next) this.setChannels(next);
    } catch (error) {
      this.ctx.logger('warn', `could not add channel ${cid} to the list: ${toChatApiError(error).message}`);
    } finally {
      this.adding.delete(cid);
    }
  }

  /** Whether a channel belongs in this list: known, not hidden (unless the filter asks), matching the filter. */
  private matches(channel: ChatChannel): boolean {
    const state = channel.state.getSnapshot();
    if (!state.channel) return false;
    if (state.channel.hidden && !('hidden' in this.options.filter)) return false;
    return matchesFilter(this.options.filter, {
      channel: state.channel,
      members: state.members,
      membership: state.membership,
    });
  }

  /**
   * The list with `channel` at its place: by its last message (or creation) time when the list sorts by
   * last message, as a fresh query would place it; at the top for other sorts. Undefined when its place
   * is on a page not loaded yet.
   */
  private withInserted(channel: ChatChannel): ChatChannel[] | undefined {
    const compare = this.comparator;
    if (compare) {
      const subject = sortSubject(channel);
      const at = this.channels.findIndex((c) => compare(subject, sortSubject(c)) < 0);
      if (at >= 0) return [...this.channels.slice(0, at), channel, ...this.channels.slice(at)];
      return this.store.getSnapshot().hasNext ? undefined : [...this.channels, channel];
    }
    if (!this.sortsByLastMessage) return [channel, ...this.channels];
    const key = lastActivity(channel);
    const at = this.channels.findIndex((c) => lastActivity(c) < key);
    if (at >= 0) return [...this.channels.slice(0, at), channel, ...this.channels.slice(at)];
    // Older than every loaded channel: it belongs to a page not loaded yet, if there is one.
    return this.store.getSnapshot().hasNext ? undefined : [...this.channels, channel];
  }

  private setChannels(channels: ChatChannel[], patch: Partial<ChannelListSnapshot> = {}): void {
    this.channels = channels;
    for (const [channel, unsubscribe] of this.channelSubscriptions) {
      if (!channels.includes(channel)) {
        unsubscribe();
        this.channelSubscriptions.delete(channel);
      }
    }
    for (const channel of channels) {
      if (!this.channelSubscriptions.has(channel)) {
        this.channelSubscriptions.set(
          channel,
          channel.state.subscribe(() => this.publish()),
        );
      }
    }
    this.publish(patch);
  }

  private publish(patch: Partial<ChannelListSnapshot> = {}): void {
    const items = this.channels.flatMap((channel) => {
      const item = this.itemFor(channel);
      return item ? [item] : [];
    });
    const current = this.store.getSnapshot();
    const same =
      items.length === current.channels.length && items.every((item, i) => item === current.channels[i]);
    if (same && Object.keys(patch).length === 0) return;
    this.store.set({ ...current, ...patch, channels: same ? current.channels : items });
  }

  private itemFor(channel: ChatChannel): ChannelListItem | undefined {
    const snapshot = channel.state.getSnapshot();
    const cached = this.items.get(snapshot);
    if (cached) return cached;
    if (!snapshot.channel || !snapshot.cid) return undefined;
    const lastMessage = [...(snapshot.messageSets.find((s) => s.isLatest)?.messages ?? [])]
      .reverse()
      .find((m) => !m.parent_id || m.show_in_channel);
    const item: ChannelListItem = {
      cid: snapshot.cid,
      channel: snapshot.channel,
      members: snapshot.members,
      unreadCount: snapshot.unreadCount,
      muted: snapshot.channel.muted === true,
      ...(snapshot.membership ? { membership: snapshot.membership } : {}),
      instance: channel,
      ...(lastMessage ? { lastMessage } : {}),
    };
    this.items.set(snapshot, item);
    return item;
  }
}

function sortSubject(channel: ChatChannel) {
  const state = channel.state.getSnapshot();
  return {
    cid: channel.cid ?? '',
    channel: state.channel,
    membership: state.membership,
    unreadCount: state.unreadCount,
  };
}

/** What the default sort orders by: the last message time, else the creation time (as the server). */
function lastActivity(channel: ChatChannel): string {
  const data = channel.state.getSnapshot().channel;
  return data?.last_message_at ?? data?.created_at ?? '';
}

/** The channel an event is about: `cid`, or the cid of the channel it carries (notifications). */
export function eventCid(event: ChatEvent): string | undefined {
  const raw: unknown =
    ('cid' in event ? event.cid : undefined) ?? ('channel' in event ? event.channel?.cid : undefined);
  return typeof raw === 'string' ? raw : undefined;
}
