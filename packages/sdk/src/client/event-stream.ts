import type { ChatEvent, SyncCursor, SyncResponse } from '@caseroom/protocol';
import type { ApiClient } from '../transport/api-client.js';
import { toChatApiError } from '../transport/errors.js';
import type { Logger } from '../transport/logger.js';

export interface EventStreamHost {
  api: ApiClient;
  logger: Logger;
  /** Applies one event (channel state, lists, listeners), in order. */
  apply(event: ChatEvent): void;
  /** Waits before retrying a failed fill (tests make it immediate). */
  wait?(ms: number): Promise<void>;
}

/** At most this many sync rounds for one fill or catch-up (each answers up to the server's cap). */
const MAX_ROUNDS = 20;
/** A failed fill is retried after 1 s, then twice as long each time, at most this long apart. */
const FILL_RETRY_MAX_MS = 15_000;

/**
 * The channels' event sequences (docs/ARCHITECTURE.md "Event sequence and sync"). Every channel event the server
 * records carries `seq`, consecutive per channel. The stream remembers the last seq applied per channel and:
 * - applies a live event whose seq is the next one;
 * - drops one it has already (seq at or below the last: a second copy, or one a sync already gave);
 * - on a gap (seq beyond the next), holds the event and every later one of that channel, asks `POST /sync` for
 *   what is missing (the socket stays up), applies the answer in order, then the held events that follow.
 * After a reconnect, {@link catchUp} syncs every known channel from the cursor. Events without seq (typing,
 * presence, health, a user's notifications) pass straight through.
 */
export class EventStream {
  private readonly last = new Map<string, number>();
  private notifications: number | undefined;
  private readonly held = new Map<string, ChatEvent[]>();
  private filling: Promise<void> | undefined;
  /** Bumped by {@link reset}: a fill started before it stops retrying. */
  private generation = 0;

  constructor(private readonly host: EventStreamHost) {}

  /** The last seq applied in channel `cid` (undefined: none seen yet). */
  lastSeq(cid: string): number | undefined {
    return this.last.get(cid);
  }

  /** True while a gap is being filled. */
  get isFilling(): boolean {
    return this.filling !== undefined;
  }

  /** Resolves once no fill is running. */
  async settled(): Promise<void> {
    while (this.filling) await this.filling;
  }

  /** A channel's state was loaded from the server as of `seq` (a query answer's `channel.last_seq`). */
  loaded(cid: string, seq: number): void {
    if (seq > (this.last.get(cid) ?? -1)) this.last.set(cid, seq);
  }

  /** Forgets everything (the user disconnected). */
  reset(): void {
    this.last.clear();
    this.held.clear();
    this.notifications = undefined;
    this.generation++;
  }

  /** One live event from the socket. */
  receive(event: ChatEvent): void {
    const cid = 'cid' in event && typeof event.cid === 'string' ? event.cid : undefined;
    const seq = 'seq' in event && typeof event.seq === 'number' ? event.seq : undefined;
    if (cid === undefined || seq === undefined) return this.host.apply(event);
    const last = this.last.get(cid);
    if (last === undefined && !this.held.has(cid)) {
      this.last.set(cid, seq);
      return this.host.apply(event);
    }
    if (last !== undefined && seq <= last) return;
    const held = this.held.get(cid);
    if (!held && last !== undefined && seq === last + 1) {
      this.last.set(cid, seq);
      return this.host.apply(event);
    }
    if (held) held.push(event);
    else this.held.set(cid, [event]);
    this.fill();
  }

  /** The cursor for `cids` (channels without a known seq are left to `last_sync_at`). */
  cursorFor(cids: readonly string[]): SyncCursor {
    const channels: Record<string, number> = {};
    for (const cid of cids) {
      const seq = this.last.get(cid);
      if (seq !== undefined) channels[cid] = seq;
    }
    return { channels, ...(this.notifications !== undefined ? { notifications: this.notifications } : {}) };
  }

  /**
   * Syncs `cids` from the cursor until the server says there is no more (after a reconnect); `since` covers
   * channels and notifications the cursor does not know yet.
   */
  async catchUp(cids: readonly string[], since: string | undefined): Promise<void> {
    if (cids.length === 0) return;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const cursor = this.cursorFor(cids);
      const answer = await this.host.api.post<SyncResponse>('/sync', {
        channel_cids: cids,
        cursor,
        ...(since ? { last_sync_at: since } : {}),
      });
      this.applySynced(answer);
      if (!answer.more) break;
    }
    for (const cid of cids) this.drain(cid);
  }

  /** Applies a sync answer in order, each channel event once, and moves the cursor to where it ends. */
  private applySynced(answer: SyncResponse): void {
    for (const event of answer.events) {
      const cid = 'cid' in event && typeof event.cid === 'string' ? event.cid : undefined;
      const seq = 'seq' in event && typeof event.seq === 'number' ? event.seq : undefined;
      if (cid !== undefined && seq !== undefined) {
        if (seq <= (this.last.get(cid) ?? -1)) continue;
        this.last.set(cid, seq);
      }
      this.host.apply(event);
    }
    for (const [cid, seq] of Object.entries(answer.cursor?.channels ?? {})) this.loaded(cid, seq);
    const n = answer.cursor?.notifications;
    if (n !== undefined && n > (this.notifications ?? -1)) this.notifications = n;
  }

  /** Applies the held events of `cid` that now follow in order; answers whether some are still held. */
  private drain(cid: string, force = false): boolean {
    const held = this.held.get(cid);
    if (!held) return false;
    held.sort((a, b) => seqOf(a) - seqOf(b));
    const rest: ChatEvent[] = [];
    for (const event of held) {
      const seq = seqOf(event);
      const last = this.last.get(cid);
      if (last !== undefined && seq <= last) continue;
      if (force || last === undefined || seq === last + 1) {
        this.last.set(cid, seq);
        this.host.apply(event);
      } else rest.push(event);
    }
    if (rest.length > 0) this.held.set(cid, rest);
    else this.held.delete(cid);
    return rest.length > 0;
  }

  private fill(): void {
    this.filling ??= this.fillAll().finally(() => {
      this.filling = undefined;
      // Events that arrived with a new gap after the last round.
      if (this.held.size > 0) this.fill();
    });
  }

  private async fillAll(): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS && this.held.size > 0; round++) {
      const cids = [...this.held.keys()];
      const answer = await this.syncUntilAnswered(cids);
      // Reset while waiting (the user disconnected): nothing is held any more.
      if (!answer) return;
      this.applySynced(answer);
      for (const cid of cids) {
        // A channel the answer leaves out (the user may no longer read it): its held events go as they are.
        const known = answer.cursor?.channels[cid] !== undefined;
        this.drain(cid, !known);
      }
      if (answer.more) continue;
      // The answer's cursor is at or past every held event (they arrived before it was asked): nothing is left.
      for (const cid of cids) this.drain(cid, true);
    }
  }

  /**
   * Asks `/sync` for the held channels until it answers, 1 s after a failure, then twice as long each time (at
   * most 15 s). The held events stay held meanwhile: showing them would move the cursor past the hole, and what
   * is missing would never be asked for again (the chaos suite lost messages that way when a node was
   * overloaded). Undefined after {@link reset}.
   */
  private async syncUntilAnswered(cids: string[]): Promise<SyncResponse | undefined> {
    const generation = this.generation;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.host.api.post<SyncResponse>('/sync', {
          channel_cids: cids,
          cursor: this.cursorFor(cids),
        });
      } catch (error) {
        this.host.logger(
          'warn',
          `filling a gap in the event stream failed: ${toChatApiError(error).message}`,
        );
        await (this.host.wait ?? delay)(Math.min(1000 * 2 ** attempt, FILL_RETRY_MAX_MS));
        if (generation !== this.generation) return undefined;
      }
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An event's channel sequence number (NaN when it has none). */
function seqOf(event: ChatEvent): number {
  return 'seq' in event ? Number(event.seq) : Number.NaN;
}
