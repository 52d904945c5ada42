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
  publish(topic: string, payload: unknown): Promise<void>;
  /** Subscribes to one topic; the returned function unsubscribes. */
  subscribe(topic: string, handler: BusHandler): Promise<() => Promise<void>>;
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
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/** Redis pub/sub bus: one publishing and one subscribing connection per node. */
export async function redisBus(url: string, onError: (err: Error) => void): Promise<Bus> {
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub = new Redis(url, { lazyConnect: true });
  pub.on('error', onError);
  sub.on('error', onError);
  await Promise.all([pub.connect(), sub.connect()]);
  const handlers = new Map<string, Set<BusHandler>>();
  sub.on('message', (topic: string, raw: string) => {
    const set = handlers.get(topic);
    if (!set) return;
    let payload: unknown;
    try {
      payload = JSON.parse(raw);
    } catch (err) {
      onError(err as Error);
      return;
    }
    for (const h of set) h(payload);
  });
  return {
    kind: 'redis',
    async publish(topic, payload) {
      await pub.publish(topic, JSON.stringify(payload));
    },
    async subscribe(topic, handler) {
      let set = handlers.get(topic);
      if (!set) {
        set = new Set();
        handlers.set(topic, set);
        await sub.subscribe(topic);
      }
      set.add(handler);
      return async () => {
        const s = handlers.get(topic);
        if (!s) return;
        s.delete(handler);
        if (s.size === 0) {
          handlers.delete(topic);
          await sub.unsubscribe(topic);
        }
      };
    },
    async close() {
      handlers.clear();
      sub.disconnect();
      await pub.quit().catch(() => pub.disconnect());
    },
  };
}
