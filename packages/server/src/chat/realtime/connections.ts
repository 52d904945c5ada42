/** Where a connection's frames go: a WebSocket or a long-poll queue. */
import type { PreparedFrame } from './ws-frame.js';

export interface ConnectionSink {
  readonly open: boolean;
  send(frame: string): void;
  /** Sends an event framed once per node (sockets write the prepared WebSocket frame). */
  sendPrepared?(frame: PreparedFrame): void;
  close(code: number, reason: string): void;
}

/** One open connection (socket or long-poll) of one user on this node. */
export interface Connection {
  id: string;
  userId: string;
  sink: ConnectionSink;
  /** Channels this connection watches (set by channel queries with `watch: true`). */
  watching: Set<string>;
  /** Set by a query with `presence: true`: the connection receives `user.presence.changed`. */
  presence: boolean;
  /** An anonymous connection (read-only, no user row, no presence). */
  anonymous: boolean;
  /** The last event fanned out to this connection on this node (see `Realtime`): an event reaches it once. */
  lastDelivery: number;
}

/** The answer of {@link ConnectionRegistry.ofUser} for a user without connections here (fan-out asks per member). */
const NONE: ReadonlySet<Connection> = new Set();

/** This node's open connections, by connection id and by user id. */
export class ConnectionRegistry {
  private readonly byId = new Map<string, Connection>();
  private readonly byUser = new Map<string, Set<Connection>>();

  add(conn: Connection): void {
    this.byId.set(conn.id, conn);
    let set = this.byUser.get(conn.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(conn.userId, set);
    }
    set.add(conn);
  }

  remove(conn: Connection): void {
    this.byId.delete(conn.id);
    const set = this.byUser.get(conn.userId);
    if (!set) return;
    set.delete(conn);
    if (set.size === 0) this.byUser.delete(conn.userId);
  }

  get(connectionId: string): Connection | undefined {
    return this.byId.get(connectionId);
  }

  ofUser(userId: string): ReadonlySet<Connection> {
    return this.byUser.get(userId) ?? NONE;
  }

  all(): IterableIterator<Connection> {
    return this.byId.values();
  }

  get size(): number {
    return this.byId.size;
  }
}
