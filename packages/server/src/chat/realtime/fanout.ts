import type { CustomEvent, ServerEvent } from '@caseroom/protocol';
import type { Bus } from '../../platform/bus.js';
import type { Logger } from '../../platform/logger.js';
import { ConnectionRegistry } from './connections.js';
import { PreparedFrame } from './ws-frame.js';

/** The bus topic every chat node listens on. */
export const FANOUT_TOPIC = 'chat:fanout';

/**
 * An event as it goes on the wire: one of the protocol's `ServerEvent` union, so a type or field the protocol does
 * not declare does not compile, or a custom event (made only by `CustomEvent.parse`).
 */
export type WireEvent = ServerEvent | CustomEvent;

/** JSON of events serialised on this node already (the outbox records it, the fan-out sends the same text). */
const serialised = new WeakMap<WireEvent, string>();

/** The event's JSON, serialised once per event object. */
export function eventJson(event: WireEvent): string {
  let json = serialised.get(event);
  if (json === undefined) {
    json = JSON.stringify(event);
    serialised.set(event, json);
  }
  return json;
}

/**
 * One event for an explicit audience. `watch` narrows delivery to the connections that do (or do not) watch
 * `event.cid`: `message.new` goes to every member, `notification.message_new` to members not watching.
 */
export interface Delivery {
  users: string[];
  event: WireEvent;
  watch?: 'watching' | 'not-watching';
  /** Only connections that asked for presence (`presence: true` in a query). */
  presence?: boolean;
}

type Envelope =
  | { kind: 'event'; delivery: Delivery }
  | { kind: 'watch'; connectionId: string; cid: string; on: boolean }
  | { kind: 'presence'; connectionId: string }
  | { kind: 'revoke'; userId: string; before: number }
  | { kind: 'poll-wake'; connectionId: string }
  | { kind: 'inactive'; userId: string; on: boolean };

/** Fan-out across nodes: publish on the bus, and on every node write to the local sockets of the audience. */
export class Realtime {
  readonly connections = new ConnectionRegistry();
  /** Per user: tokens issued (`iat`, seconds) before this instant are refused (see {@link revokeUser}). */
  readonly revokedBefore = new Map<string, number>();
  /** Deactivated and deleted users (loaded at start, kept current over the bus): every request of theirs is refused. */
  readonly inactive = new Set<string>();
  private unsubscribe: (() => Promise<void>) | undefined;
  /** Long-poll requests waiting on this node, by connection id (see realtime/longpoll.ts). */
  private readonly pollWaiters = new Map<string, Set<() => void>>();
  /** Events fanned out on this node so far (numbers them for each connection's `lastDelivery`). */
  private deliveries = 0;
  /** Set once the node shuts down: connections closing then leave the database alone. */
  closing = false;
  /**
   * Test hook: when set, {@link publish} drops the deliveries, as a node that dies between its commit and its
   * publish does (the events are in `chat_events`; realtime/relay delivers them).
   */
  dropPublishes = false;
  /** Channel events delivered on this node, `cid#seq` -> when: each is delivered once (bus or relay). */
  private readonly delivered = new Map<string, number>();

  constructor(
    private readonly bus: Bus,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.bus.subscribe(FANOUT_TOPIC, (payload) => this.receive(payload as Envelope));
  }

  /** Sends each delivery to its audience on every node. Call only after the write committed. */
  async publish(deliveries: readonly Delivery[]): Promise<void> {
    if (this.dropPublishes) return;
    for (const delivery of deliveries) {
      if (delivery.users.length === 0) continue;
      await this.bus
        .publish(FANOUT_TOPIC, { kind: 'event', delivery } satisfies Envelope)
        .catch((err: unknown) => this.log.error({ err }, 'chat fan-out publish failed'));
    }
  }

  /** Marks a connection (on whichever node holds it) as watching or no longer watching a channel. */
  async setWatching(connectionId: string, cid: string, on: boolean): Promise<void> {
    const local = this.connections.get(connectionId);
    if (local) {
      if (on) local.watching.add(cid);
      else local.watching.delete(cid);
      return;
    }
    await this.bus.publish(FANOUT_TOPIC, { kind: 'watch', connectionId, cid, on } satisfies Envelope);
  }

  /**
   * Refuses the user's tokens issued before `before` (Unix seconds) and closes their sockets, on every node the bus
   * reaches (realtime/revocations.ts records it in the database first, for the others). Clients still entitled to
   * chat get a fresh token (code 40 makes the SDK ask its token provider again) and reconnect.
   */
  async revokeUser(userId: string, before = Math.ceil(Date.now() / 1000)): Promise<void> {
    const envelope: Envelope = { kind: 'revoke', userId, before };
    this.receive(envelope);
    await this.bus.publish(FANOUT_TOPIC, envelope);
  }

  /** A revocation learned on this node (bus or database): a newer one refuses more tokens and closes the sockets. */
  applyRevocation(userId: string, before: number): void {
    if (before <= (this.revokedBefore.get(userId) ?? 0)) return;
    this.revokedBefore.set(userId, before);
    const frame = JSON.stringify({
      type: 'connection.error',
      error: { code: 40, message: 'JWT token revoked', StatusCode: 401 },
      created_at: new Date().toISOString(),
    } satisfies ServerEvent);
    for (const conn of [...this.connections.ofUser(userId)]) {
      if (conn.sink.open) conn.sink.send(frame);
      conn.sink.close(1000, 'token revoked');
    }
  }

  /** Subscribes a connection (on whichever node holds it) to presence changes of the users it sees. */
  async setPresence(connectionId: string): Promise<void> {
    const local = this.connections.get(connectionId);
    if (local) local.presence = true;
    else await this.bus.publish(FANOUT_TOPIC, { kind: 'presence', connectionId } satisfies Envelope);
  }

  /** Marks a user inactive (deactivated or deleted) or active again, on every node. */
  async setInactive(userId: string, on: boolean): Promise<void> {
    const envelope: Envelope = { kind: 'inactive', userId, on };
    this.receive(envelope);
    await this.bus.publish(FANOUT_TOPIC, envelope);
  }

  /** Tells every node that a long-poll connection has frames queued (or ended). */
  async wakePoll(connectionId: string): Promise<void> {
    await this.bus.publish(FANOUT_TOPIC, { kind: 'poll-wake', connectionId } satisfies Envelope);
  }

  /** Calls `fn` when the connection is woken; the returned function stops listening. */
  onPollWake(connectionId: string, fn: () => void): () => void {
    let set = this.pollWaiters.get(connectionId);
    if (!set) {
      set = new Set();
      this.pollWaiters.set(connectionId, set);
    }
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.pollWaiters.delete(connectionId);
    };
  }

  /**
   * Marks channel event `cid`/`seq` delivered on this node; false when it was already (the bus and the relay may
   * both bring it).
   */
  firstDelivery(cid: string, seq: number): boolean {
    const key = `${cid}#${seq}`;
    if (this.delivered.has(key)) return false;
    this.delivered.set(key, Date.now());
    return true;
  }

  /** True when channel event `cid`/`seq` was delivered on this node (within the memory of {@link forgetBefore}). */
  wasDelivered(cid: string, seq: number): boolean {
    return this.delivered.has(`${cid}#${seq}`);
  }

  /** Forgets deliveries older than `ms` (oldest first: the map keeps insertion order). */
  forgetBefore(ms: number): void {
    for (const [key, at] of this.delivered) {
      if (at >= ms) break;
      this.delivered.delete(key);
    }
  }

  /** Delivers to this node's sockets only (the relay's way in: every node relays for its own connections). */
  deliverLocal(delivery: Delivery): void {
    this.receive({ kind: 'event', delivery });
  }

  private receive(envelope: Envelope): void {
    if (envelope.kind === 'inactive') {
      if (envelope.on) this.inactive.add(envelope.userId);
      else this.inactive.delete(envelope.userId);
      return;
    }
    if (envelope.kind === 'poll-wake') {
      for (const fn of [...(this.pollWaiters.get(envelope.connectionId) ?? [])]) fn();
      return;
    }
    if (envelope.kind === 'presence') {
      const conn = this.connections.get(envelope.connectionId);
      if (conn) conn.presence = true;
      return;
    }
    if (envelope.kind === 'revoke') {
      this.applyRevocation(envelope.userId, envelope.before);
      return;
    }
    if (envelope.kind === 'watch') {
      const conn = this.connections.get(envelope.connectionId);
      if (!conn) return;
      if (envelope.on) conn.watching.add(envelope.cid);
      else conn.watching.delete(envelope.cid);
      return;
    }
    const { users, event, watch, presence } = envelope.delivery;
    const cid = 'cid' in event && typeof event.cid === 'string' ? event.cid : undefined;
    const seq = 'seq' in event && typeof event.seq === 'number' ? event.seq : undefined;
    if (cid !== undefined && seq !== undefined && !this.firstDelivery(cid, seq)) return;
    // The audience's rules are the same for every member: decided once here, checked per connection below.
    const byWatch = watch !== undefined && cid !== undefined && cid !== '';
    const mustWatch = watch === 'watching';
    // Framed once per node, written to many sockets.
    let frame: PreparedFrame | undefined;
    // A user named twice gets the event once: each connection remembers the last event it was handed (cheaper than
    // a Set of the audience per event).
    const delivery = ++this.deliveries;
    for (const userId of users) {
      for (const conn of this.connections.ofUser(userId)) {
        if (conn.lastDelivery === delivery) continue;
        conn.lastDelivery = delivery;
        if (byWatch && conn.watching.has(cid) !== mustWatch) continue;
        if (presence && !conn.presence) continue;
        frame ??= new PreparedFrame(eventJson(event));
        if (!conn.sink.open) continue;
        if (conn.sink.sendPrepared) conn.sink.sendPrepared(frame);
        else conn.sink.send(frame.json);
      }
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.unsubscribe?.();
    for (const conn of [...this.connections.all()]) conn.sink.close(1001, 'server shutting down');
  }
}
