import {
  CHAT_LIMITS,
  type Channel,
  type ChatEvent,
  type ChatUser,
  type Message,
  type ReadState,
} from '@caseroom/protocol';
import type { ChatChannel } from '../channels/channel.js';
import { StateStore, type Store } from '../stores/store.js';
import { toChatApiError } from '../transport/errors.js';
import { Thread, type ThreadContext } from './thread.js';

/** One thread as `POST /threads` answers it (chat-spec §3 Thread). */
export interface ThreadResponse {
  parent_message_id: string;
  parent_message: Message;
  channel_cid?: string;
  channel?: Channel;
  reply_count?: number;
  last_message_at?: string;
  latest_replies?: Message[];
  read?: ReadState[];
  thread_participants?: { user_id: string; user?: ChatUser }[];
}

export interface ThreadListSnapshot {
  /** Loaded threads, newest activity first. */
  threads: readonly Thread[];
  /** Threads with unread replies for the connected user. */
  unreadThreadCount: number;
  /** Parent ids of threads with new replies that are not in the list yet (show "reload"). */
  unseenThreadIds: readonly string[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  hasNext: boolean;
  error?: string;
}

export interface ThreadManagerContext extends ThreadContext {
  channelByCid(cid: string): ChatChannel;
}

/** chat-spec §7 Threads: POST /threads defaults. */
const QUERY_DEFAULTS = { participant_limit: 10, reply_limit: 3, watch: true } as const;
const THREAD_PAGE = CHAT_LIMITS.channelPageSize;

/**
 * The user's threads (chat-spec §4 Thread): a paged list from `POST /threads`, the unread thread
 * count, the ids of threads with unseen replies, and the thread open on screen. After a connection
 * drop every thread turns stale and the list reloads once the connection recovered.
 */
export class ThreadManager {
  private readonly store = new StateStore<ThreadListSnapshot>({
    threads: [],
    unreadThreadCount: 0,
    unseenThreadIds: [],
    status: 'idle',
    hasNext: false,
  });
  private readonly activeStore = new StateStore<Thread | undefined>(undefined);
  private readonly instances = new Map<string, Thread>();
  private readonly watched = new Map<Thread, () => void>();
  private next: string | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: ThreadManagerContext) {
    this.unsubscribe = ctx.onEvent((event) => this.handleEvent(event));
  }

  get state(): Store<ThreadListSnapshot> {
    return this.store;
  }

  /** The thread open on screen. */
  get active(): Store<Thread | undefined> {
    return this.activeStore;
  }

  /** The one `Thread` for a parent message (created on first use). */
  thread(parent: Message, channel?: ChatChannel): Thread {
    let thread = this.instances.get(parent.id);
    if (!thread) {
      thread = new Thread(this.ctx, channel ?? this.ctx.channelByCid(parent.cid), parent);
      this.instances.set(parent.id, thread);
    }
    return thread;
  }

  /** Opens `thread` (closing the previous one), or closes the open one with undefined. */
  setActive(thread: Thread | undefined): void {
    const previous = this.activeStore.getSnapshot();
    if (previous === thread) return;
    previous?.deactivate();
    this.activeStore.set(thread);
    thread?.activate();
  }

  /** Loads the first page of threads, replacing the list; clears the unseen ids. */
  async load(): Promise<void> {
    this.next = undefined;
    await this.fetch('replace');
  }

  async loadMore(): Promise<void> {
    const state = this.store.getSnapshot();
    if (!state.hasNext || state.status === 'loading') return;
    await this.fetch('append');
  }

  dispose(): void {
    this.unsubscribe();
    for (const stop of this.watched.values()) stop();
    this.watched.clear();
    for (const thread of this.instances.values()) thread.dispose();
    this.instances.clear();
    this.activeStore.set(undefined);
  }

  private async fetch(mode: 'replace' | 'append'): Promise<void> {
    this.store.patch({ status: 'loading', error: undefined });
    try {
      const answer = await this.ctx.api.post<{ threads: ThreadResponse[]; next?: string }>('/threads', {
        ...QUERY_DEFAULTS,
        limit: THREAD_PAGE,
        ...(mode === 'append' && this.next ? { next: this.next } : {}),
      });
      this.next = answer.next;
      const loaded = answer.threads.map((t) => this.fromResponse(t));
      const threads =
        mode === 'replace'
          ? loaded
          : [...this.store.getSnapshot().threads, ...loaded.filter((t) => !this.listed(t.id))];
      this.setThreads(threads, {
        status: 'ready',
        hasNext: answer.next !== undefined && answer.next !== '',
        ...(mode === 'replace' ? { unseenThreadIds: [] } : {}),
      });
    } catch (error) {
      const message = toChatApiError(error).message;
      this.ctx.logger('warn', `query threads failed: ${message}`);
      this.store.patch({ status: 'error', error: message });
      throw error;
    }
  }

  private fromResponse(response: ThreadResponse): Thread {
    const me = this.ctx.currentUser()?.id;
    const read: Record<string, ReadState> = {};
    for (const r of response.read ?? []) read[r.user.id] = r;
    const participants = (response.thread_participants ?? []).map((p) => p.user ?? { id: p.user_id });
    const data = {
      read,
      participants,
      unreadCount: me ? (read[me]?.unread_messages ?? 0) : 0,
      latestReplies: response.latest_replies ?? [],
      ...(response.last_message_at ? { lastMessageAt: response.last_message_at } : {}),
    };
    const existing = this.instances.get(response.parent_message_id);
    if (existing) {
      existing.applyListData(data);
      return existing;
    }
    const cid = response.channel?.cid ?? response.channel_cid ?? response.parent_message.cid;
    const channel = this.ctx.channelByCid(cid);
    const thread = new Thread(this.ctx, channel, response.parent_message, data);
    this.instances.set(thread.id, thread);
    return thread;
  }

  private handleEvent(event: ChatEvent): void {
    const status = this.store.getSnapshot().status;
    if (event.type === 'connection.changed' && event.online === false) {
      for (const thread of this.instances.values()) thread.markStale();
      return;
    }
    if (event.type === 'connection.recovered') {
      if (status === 'ready') void this.load().catch(() => undefined);
      return;
    }
    if (event.type !== 'message.new' || !event.message.parent_id || status !== 'ready') return;
    const parentId = event.message.parent_id;
    if (this.listed(parentId)) {
      // Newest activity first: the thread moves to the top.
      const threads = this.store.getSnapshot().threads;
      const thread = threads.find((t) => t.id === parentId);
      if (thread && threads[0] !== thread) this.setThreads([thread, ...threads.filter((t) => t !== thread)]);
      return;
    }
    const unseen = this.store.getSnapshot().unseenThreadIds;
    if (!unseen.includes(parentId)) this.store.patch({ unseenThreadIds: [...unseen, parentId] });
  }

  private listed(id: string): boolean {
    return this.store.getSnapshot().threads.some((t) => t.id === id);
  }

  private setThreads(threads: Thread[], patch: Partial<ThreadListSnapshot> = {}): void {
    for (const [thread, stop] of this.watched) {
      if (!threads.includes(thread)) {
        stop();
        this.watched.delete(thread);
      }
    }
    for (const thread of threads) {
      if (!this.watched.has(thread))
        this.watched.set(
          thread,
          thread.state.subscribe(() => this.recount()),
        );
    }
    this.store.patch({ ...patch, threads, unreadThreadCount: countUnread(threads) });
  }

  private recount(): void {
    this.store.patch({ unreadThreadCount: countUnread(this.store.getSnapshot().threads) });
  }
}

function countUnread(threads: readonly Thread[]): number {
  return threads.filter((t) => t.state.getSnapshot().unreadCount > 0).length;
}
