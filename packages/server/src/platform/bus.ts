import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/** A message on the bus: a topic and a JSON-serialisable payload. */
export type BusHandler = (payload: unknown) => void;

/**
 * Fan-out between server nodes. In-process by default; Redis pub/sub when `REDIS_URL` is set, so every node
 * sees what any node publishes. Delivery is at most once: clients catch up through `POST /chat/sync`.
 */
export interface Bus {
  readonly kind: 'memory' | 'redis';
  /**
   * Hands the payload to every subscriber of the topic, on this node at once and on the others when the bus can.
   * Never waits on the network and never rejects: a message other nodes could not get is logged and dropped.
   */
  publish(topic: string, payload: unknown): Promise<void>;
  /** Subscribes to one topic; the returned function unsubscribes. */
  subscribe(topic: string, handler: BusHandler): Promise<() => Promise<void>>;
  /** Resolves when the bus reaches every node (Redis answers and this node's subscriptions stand); rejects if not. */
  check(): Promise<void>;
  close(): Promise<void>;
}

export function memoryBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    kind: 'memory',
    async publish(topic, payload) {
      // Deliver asynchronously, like the network would, so publishers never run subscribers' code inline.
      setImmediate(() => emitter.emit(topic, payload));
    },
    async subscribe(topic, handler) {
      emitter.on(topic, handler);
      return async () => {
        emitter.off(topic, handler);
      };
    },
    async check() {},
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/** How long one Redis command may take before the bus gives up on it (a frozen Redis never answers). */
export const BUS_COMMAND_TIMEOUT_MS = 1000;
/** Publishes sent to Redis and not answered yet, at most; beyond that other nodes miss the message (logged). */
const MAX_IN_FLIGHT = 10_000;
/** Each message on Redis starts with the publishing node's id (16 hex digits): a node skips its own messages. */
const NODE_ID_LENGTH = 16;
const NODE_ID = /^[0-9a-f]{16}/;

/**
 * What the Redis bus tells its owner: the error that started an outage (once per outage), and its state going down
 * or up again, with the number of messages other nodes missed meanwhile.
 */
export interface RedisBusEvents {
  onError(err: Error): void;
  onState?(state: 'down' | 'up', missed: number): void;
}

/**
 * Redis pub/sub bus: one publishing and one subscribing connection per node. Subscribers on the publishing node get
 * the message in-process (so a node keeps serving its own sockets while Redis is away); the others through Redis.
 * A down or frozen Redis never blocks or fails a publisher: nothing is queued for a connection that is not ready,
 * every command has a short timeout, and the subscriptions are made again each time the connection comes back.
 */
export async function redisBus(url: string, events: RedisBusEvents | ((err: Error) => void)): Promise<Bus> {
  const { onError, onState } =
    typeof events === 'function' ? { onError: events, onState: undefined } : events;
  const options = {
    lazyConnect: true,
    enableOfflineQueue: false,
    autoResubscribe: false,
    maxRetriesPerRequest: 1,
    commandTimeout: BUS_COMMAND_TIMEOUT_MS,
  };
  const pub = new Redis(url, options);
  const sub = new Redis(url, options);
  const nodeId = crypto.randomBytes(NODE_ID_LENGTH / 2).toString('hex');
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const handlers = new Map<string, Set<BusHandler>>();
  /** The topics Redis confirmed on the current subscriber connection (none while it is away). */
  const subscribed = new Set<string>();
  let inFlight = 0;
  let dropped = 0;
  let down = false;
  let closed = false;

  /** One log line per outage, however many reconnects and publishes fail during it. */
  const fail = (err: Error) => {
    if (closed) return;
    if (!down) {
      down = true;
      onError(err);
      onState?.('down', 0);
    }
  };
  /** After a reconnect, or the first answer after a freeze. */
  const recovered = () => {
    if (!down || pub.status !== 'ready' || sub.status !== 'ready') return;
    down = false;
    const missed = dropped;
    dropped = 0;
    onState?.('up', missed);
  };
  pub.on('error', fail);
  sub.on('error', fail);
  for (const conn of [pub, sub]) conn.on('close', () => fail(new Error('redis bus: connection closed')));
  sub.on('close', () => subscribed.clear());
  pub.on('ready', recovered);
  // A fresh subscriber connection has no subscriptions: make them again before counting the bus as up.
  sub.on('ready', () => {
    void resubscribe().then(recovered, fail);
  });
  async function resubscribe(): Promise<void> {
    const topics = [...handlers.keys()];
    if (topics.length > 0) await sub.subscribe(...topics);
    for (const t of topics) subscribed.add(t);
  }

  sub.on('message', (topic: string, raw: string) => {
    if (raw.startsWith(nodeId)) return; // delivered in-process already
    const set = handlers.get(topic);
    if (!set) return;
    let payload: unknown;
    try {
      payload = JSON.parse(NODE_ID.test(raw) ? raw.slice(NODE_ID_LENGTH) : raw);
    } catch (err) {
      onError(err as Error);
      return;
    }
    for (const h of set) h(payload);
  });

  // A node starts while Redis is away too: it serves its own sockets and joins the others once Redis is back.
  await Promise.all([pub.connect(), sub.connect()]).catch(fail);

  return {
    kind: 'redis',
    async publish(topic, payload) {
      // In-process subscribers get the message asynchronously, like the network would deliver it.
      setImmediate(() => local.emit(topic, payload));
      if (pub.status !== 'ready' || inFlight >= MAX_IN_FLIGHT) {
        dropped += 1;
        fail(new Error(`redis bus: not ready (${pub.status}), message not sent to other nodes`));
        return;
      }
      inFlight += 1;
      pub
        .publish(topic, nodeId + JSON.stringify(payload))
        .then(recovered, (err: Error) => {
          dropped += 1;
          fail(err);
        })
        .finally(() => (inFlight -= 1));
    },
    async subscribe(topic, handler) {
      let set = handlers.get(topic);
      if (!set) {
        set = new Set();
        handlers.set(topic, set);
        if (sub.status === 'ready') {
          await sub.subscribe(topic).then(() => subscribed.add(topic), fail);
        }
      }
      set.add(handler);
      local.on(topic, handler);
      return async () => {
        local.off(topic, handler);
        const s = handlers.get(topic);
        if (!s) return;
        s.delete(handler);
        if (s.size === 0) {
          handlers.delete(topic);
          subscribed.delete(topic);
          if (sub.status === 'ready') await sub.unsubscribe(topic).catch(fail);
        }
      };
    },
    async check() {
      if (pub.status !== 'ready' || sub.status !== 'ready') {
        throw new Error(`redis is ${pub.status === 'ready' ? sub.status : pub.status}`);
      }
      // A subscription whose answer timed out (Redis frozen) is asked for again (SUBSCRIBE is idempotent).
      const missing = [...handlers.keys()].filter((t) => !subscribed.has(t));
      if (missing.length > 0) {
        await sub.subscribe(...missing);
        for (const t of missing) subscribed.add(t);
      }
      await pub.ping();
      recovered();
    },
    async close() {
      closed = true;
      handlers.clear();
      local.removeAllListeners();
      sub.disconnect();
      await pub.quit().catch(() => pub.disconnect());
    },
  };
}
