import { CustomEvent } from '@caseroom/protocol';
import { describe, expect, it } from 'vitest';
import { memoryBus } from '../src/platform/bus.js';
import type { Logger } from '../src/platform/logger.js';
import type { Connection } from '../src/chat/realtime/connections.js';
import { Realtime, type Delivery } from '../src/chat/realtime/fanout.js';
import type { PreparedFrame } from '../src/chat/realtime/ws-frame.js';

/** A node's fan-out to its local connections: who gets an event, and how many times. */
describe('Realtime fan-out audience', () => {
  const log = { error: () => {}, warn: () => {} } as unknown as Logger;

  async function node() {
    const realtime = new Realtime(memoryBus(), log);
    await realtime.start();
    const got = new Map<string, string[]>();
    const connect = (
      id: string,
      userId: string,
      o: { watching?: string[]; presence?: boolean; prepared?: boolean } = {},
    ) => {
      const frames: string[] = [];
      got.set(id, frames);
      const conn: Connection = {
        id,
        userId,
        sink: {
          open: true,
          send: (frame) => frames.push(frame),
          ...(o.prepared === false
            ? {}
            : { sendPrepared: (frame: PreparedFrame) => frames.push(frame.json) }),
          close: () => {},
        },
        watching: new Set(o.watching ?? []),
        presence: o.presence ?? false,
        anonymous: false,
        lastDelivery: 0,
      };
      realtime.connections.add(conn);
    };
    const deliver = async (...deliveries: Delivery[]) => {
      await realtime.publish(deliveries);
      await new Promise((resolve) => setImmediate(resolve));
    };
    /** The `n` of each event a connection was handed, in order. */
    const ns = (id: string) => (got.get(id) ?? []).map((f) => (JSON.parse(f) as { n: number }).n);
    return { realtime, connect, deliver, ns };
  }

  // A custom event carries the test's own field `n` (a server event has no room for it).
  const event = (n: number) =>
    CustomEvent.parse({ type: 'test.numbered', cid: 'messaging:a', n, created_at: '2026-01-01T00:00:00Z' });

  it('hands each connection an event once, also when its user is named twice, and every event in order', async () => {
    const { realtime, connect, deliver, ns } = await node();
    connect('a1', 'alice');
    connect('a2', 'alice', { prepared: false });
    connect('b1', 'bob');
    connect('c1', 'carol');
    await deliver(
      { users: ['alice', 'bob', 'alice', 'nobody'], event: event(1) },
      { users: ['bob', 'bob'], event: event(2) },
      { users: ['alice'], event: event(3) },
    );
    expect(ns('a1')).toEqual([1, 3]);
    expect(ns('a2')).toEqual([1, 3]);
    expect(ns('b1')).toEqual([1, 2]);
    expect(ns('c1')).toEqual([]);
    await realtime.close();
  });

  it('narrows by watching and by presence', async () => {
    const { realtime, connect, deliver, ns } = await node();
    connect('w', 'alice', { watching: ['messaging:a'] });
    connect('n', 'alice');
    connect('p', 'bob', { presence: true });
    connect('q', 'bob');
    await deliver(
      { users: ['alice'], event: event(1), watch: 'watching' },
      { users: ['alice'], event: event(2), watch: 'not-watching' },
      { users: ['bob'], event: event(3), presence: true },
    );
    expect(ns('w')).toEqual([1]);
    expect(ns('n')).toEqual([2]);
    expect(ns('p')).toEqual([3]);
    expect(ns('q')).toEqual([]);
    await realtime.close();
  });
});
