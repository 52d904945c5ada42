import { describe, expect, it } from 'vitest';
import { memoryBus } from './bus.js';

describe('in-process bus', () => {
  it('delivers to subscribers of the topic only, after the publisher returns', async () => {
    const bus = memoryBus();
    const seen: unknown[] = [];
    const other: unknown[] = [];
    await bus.subscribe('user:a', (p) => seen.push(p));
    await bus.subscribe('user:b', (p) => other.push(p));
    await bus.publish('user:a', { n: 1 });
    expect(seen).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual([{ n: 1 }]);
    expect(other).toEqual([]);
    await bus.close();
  });

  it('stops delivering after unsubscribe', async () => {
    const bus = memoryBus();
    const seen: unknown[] = [];
    const off = await bus.subscribe('t', (p) => seen.push(p));
    await off();
    await bus.publish('t', 1);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual([]);
  });
});
