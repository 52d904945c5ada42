import type { ChatEvent, Message, OwnUser } from '@caseroom/protocol';
import type { ChannelSnapshot } from '../channels/channel-state.js';
import { StateStore, type Store } from '../stores/store.js';
import type { ApiClient } from '../transport/api-client.js';
import { toChatApiError } from '../transport/errors.js';
import type { Logger } from '../transport/logger.js';

/** The connected user's unread totals, as the server counts them (muted channels left out). */
export interface UnreadTotals {
  /** Unread messages across the user's channels. */
  total_unread_count: number;
  /** Channels with at least one unread message. */
  unread_channels: number;
}

/** A channel the client holds: its observable state and whether it holds server data yet. */
export interface HeldChannel {
  readonly cid: string | undefined;
  readonly isInitialized: boolean;
  readonly state: Store<ChannelSnapshot>;
}

export interface UnreadTotalHost {
  api: Pick<ApiClient, 'get'>;
  logger: Logger;
  /** The connected user's id. */
  userId(): string | undefined;
}

/** `GET /chat/unread`, the parts read here. */
interface UnreadAnswer {
  total_unread_count: number;
  unread_channels: number;
  channels: { channel_id: string; unread_count: number }[];
}

/**
 * An event that moves a count while `GET /unread` runs may or may not be in its answer: the counts are fetched
 * again (the next answer is computed after the event committed), at most this many times in a row.
 */
const MAX_FETCH_ROUNDS = 3;

/** One channel's count as its held state has it. */
interface HeldCount {
  count: number;
  muted: boolean;
}

/**
 * The user's unread total, kept by the client itself (chat-spec §4 read state). The server frames a channel's
 * `message.new` once for all its members, so the event carries no per-user totals; only the user's own
 * notifications (`notification.mark_read`, `notification.mark_unread`) do. The total is therefore the sum of
 * per-channel counts:
 * - a channel the client holds with server data counts its own state's `unreadCount` (the channel already
 *   follows new messages, reads from any device, mark-unread and its local read marking);
 * - any other channel counts from `GET /chat/unread` (on connect and after each reconnect) plus the events:
 *   `message.new` from others in the main list (not silent, not system) +1, a read by the user 0,
 *   `notification.mark_unread` its count, truncation or hide with cleared history 0, deletion or removal gone.
 * Muted channels count nothing (`notification.channel_mutes_updated` lists them; before it, the channel's `muted`).
 * When a notification's own totals disagree with the sum, the counts are fetched again.
 */
export class UnreadTotal {
  private readonly store = new StateStore<UnreadTotals>({ total_unread_count: 0, unread_channels: 0 });
  /** Channels not held with server data: the server's counts and the events since. */
  private readonly counts = new Map<string, number>();
  /** Channels held with server data, by cid. */
  private readonly held = new Map<string, HeldCount>();
  private readonly untrack = new Map<HeldChannel, () => void>();
  /** Deleted channels, and channels the user left: they count nothing (until added back). */
  private readonly gone = new Set<string>();
  /** The user's channel mutes (cid -> end, or undefined for no end) once the server listed them. */
  private mutes: Map<string, number | undefined> | undefined;
  /** The server's totals from `health.check`, shown until the first `GET /unread` answers. */
  private fallback: UnreadTotals | undefined;
  private fetching: Promise<void> | undefined;
  private fetchAgain = false;
  private generation = 0;

  constructor(private readonly host: UnreadTotalHost) {}

  /** The totals; a new snapshot only when a number changes. */
  get totals(): Store<UnreadTotals> {
    return this.store;
  }

  /** The user connected: show the server's totals from `health.check` at once, then fetch the counts. */
  start(me: OwnUser | undefined): void {
    if (me)
      this.fallback = { total_unread_count: me.total_unread_count, unread_channels: me.unread_channels };
    this.recompute();
    void this.refresh();
  }

  /** Fetches the per-channel counts (`GET /chat/unread`); one request at a time, repeated when asked meanwhile. */
  refresh(): Promise<void> {
    if (this.fetching) {
      this.fetchAgain = true;
      return this.fetching;
    }
    const generation = this.generation;
    this.fetching = (async () => {
      let round = 0;
      do {
        this.fetchAgain = false;
        round++;
        try {
          const answer = await this.host.api.get<UnreadAnswer>('/unread');
          if (generation !== this.generation) return;
          this.counts.clear();
          for (const c of answer.channels) this.counts.set(c.channel_id, c.unread_count);
          this.fallback = undefined;
          this.recompute();
        } catch (error) {
          this.host.logger('warn', `loading unread counts failed: ${toChatApiError(error).message}`);
        }
      } while (this.fetchAgain && round < MAX_FETCH_ROUNDS && generation === this.generation);
    })().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  /** Follows a channel the client holds: its count replaces the event-kept one once it has server data. */
  track(channel: HeldChannel): void {
    if (this.untrack.has(channel)) return;
    const update = () => this.updateHeld(channel);
    this.untrack.set(channel, channel.state.subscribe(update));
    update();
  }

  /** Applies one event after the channels had it (the held channels' stores already moved). */
  apply(event: ChatEvent): void {
    const cid = 'cid' in event && typeof event.cid === 'string' ? event.cid : undefined;
    switch (event.type) {
      case 'message.new':
        if (cid && !this.held.has(cid) && this.countsAsUnread(event.message)) {
          this.gone.delete(cid);
          this.counts.set(cid, (this.counts.get(cid) ?? 0) + 1);
          this.movedDuringFetch();
          this.recompute();
        }
        return;
      case 'message.read':
        if (cid && event.user?.id === this.host.userId() && !event.thread_id) this.setCount(cid, 0);
        return;
      case 'notification.mark_read':
        if (cid) this.setCount(cid, 0);
        else this.clearAll();
        this.check(event);
        return;
      case 'notification.mark_unread':
        this.setCount(event.cid, event.unread_messages);
        this.check(event);
        return;
      case 'channel.truncated':
        if (cid) this.setCount(cid, 0);
        return;
      case 'channel.hidden':
        // The server keeps counting a hidden channel (a new message brings it back), unless its history went.
        if (cid && event.clear_history) this.setCount(cid, 0);
        return;
      case 'channel.deleted':
      case 'notification.removed_from_channel':
        if (cid) this.forget(cid);
        return;
      case 'notification.added_to_channel':
      case 'notification.invite_accepted':
        if (cid && this.gone.delete(cid)) this.recompute();
        return;
      case 'notification.channel_mutes_updated': {
        const mutes = new Map<string, number | undefined>();
        for (const m of event.me.channel_mutes)
          mutes.set(m.cid, m.expires ? Date.parse(m.expires) : undefined);
        this.mutes = mutes;
        // An unmuted channel's count was not kept meanwhile: ask the server.
        void this.refresh();
        this.recompute();
        return;
      }
      default:
        return;
    }
  }

  /** Forgets everything (the user disconnected). */
  reset(): void {
    this.generation++;
    for (const stop of this.untrack.values()) stop();
    this.untrack.clear();
    this.counts.clear();
    this.held.clear();
    this.gone.clear();
    this.mutes = undefined;
    this.fallback = undefined;
    this.store.set({ total_unread_count: 0, unread_channels: 0 });
  }

  private updateHeld(channel: HeldChannel): void {
    const cid = channel.cid;
    if (!cid || !channel.isInitialized) return;
    const snapshot = channel.state.getSnapshot();
    const next: HeldCount = { count: snapshot.unreadCount, muted: snapshot.channel?.muted === true };
    const previous = this.held.get(cid);
    if (previous && previous.count === next.count && previous.muted === next.muted) return;
    this.held.set(cid, next);
    this.recompute();
  }

  /** chat-spec §4: others' main-list messages count; own, silent, thread-only and system ones do not. */
  private countsAsUnread(message: Message): boolean {
    const author = message.user?.id ?? message.user_id;
    if (author === this.host.userId() || message.silent) return false;
    if (message.type === 'system' || message.type === 'deleted') return false;
    return !message.parent_id || message.show_in_channel === true;
  }

  private setCount(cid: string, count: number): void {
    if (this.held.has(cid)) return; // the channel's own state has it
    if ((this.counts.get(cid) ?? 0) === count && !this.gone.has(cid)) return;
    this.counts.set(cid, count);
    this.movedDuringFetch();
    this.recompute();
  }

  private movedDuringFetch(): void {
    if (this.fetching) this.fetchAgain = true;
  }

  private clearAll(): void {
    this.counts.clear();
    this.movedDuringFetch();
    this.recompute();
  }

  private forget(cid: string): void {
    this.gone.add(cid);
    this.counts.delete(cid);
    this.movedDuringFetch();
    this.recompute();
  }

  /** A notification's own totals (as of its commit) against the sum: a difference means a count drifted. */
  private check(event: { total_unread_count?: number | undefined }): void {
    if (typeof event.total_unread_count !== 'number' || this.fetching) return;
    if (event.total_unread_count !== this.store.getSnapshot().total_unread_count) void this.refresh();
  }

  private muted(cid: string, heldMuted: boolean): boolean {
    if (!this.mutes) return heldMuted;
    if (!this.mutes.has(cid)) return false;
    const until = this.mutes.get(cid);
    return until === undefined || until > Date.now();
  }

  private recompute(): void {
    let total = 0;
    let channels = 0;
    const add = (cid: string, count: number, heldMuted: boolean) => {
      if (count <= 0 || this.gone.has(cid) || this.muted(cid, heldMuted)) return;
      total += count;
      channels += 1;
    };
    for (const [cid, held] of this.held) add(cid, held.count, held.muted);
    for (const [cid, count] of this.counts) if (!this.held.has(cid)) add(cid, count, false);
    const next = this.fallback && this.held.size === 0 ? this.fallback : undefined;
    const current = this.store.getSnapshot();
    const totals = next ?? { total_unread_count: total, unread_channels: channels };
    if (
      current.total_unread_count !== totals.total_unread_count ||
      current.unread_channels !== totals.unread_channels
    )
      this.store.set({ ...totals });
  }
}
