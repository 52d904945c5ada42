import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisBus, type Bus } from '../src/platform/bus.js';
import { TEST_REDIS_URL } from './helpers/server.js';

describe('Redis bus', () => {
  let a: Bus;
  let b: Bus;
  beforeAll(async () => {
    const fail = (err: Error) => {
      throw err;
    };
    a = await redisBus(TEST_REDIS_URL, fail);
    b = await redisBus(TEST_REDIS_URL, fail);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('carries a publish on one node to a subscriber on another', async () => {
    const topic = `test:${Date.now()}:${Math.random()}`;
    let deliver!: (p: unknown) => void;
    const got = new Promise((resolve) => (deliver = resolve));
    await b.subscribe(topic, deliver); // resolves once Redis confirmed the subscription
    await a.publish(topic, { hello: 'node b' });
    await expect(got).resolves.toEqual({ hello: 'node b' });
  });

  it('stops after unsubscribe', async () => {
    const topic = `test:${Date.now()}:${Math.random()}`;
    const seen: unknown[] = [];
    const off = await b.subscribe(topic, (p) => seen.push(p));
    await off();
    await a.publish(topic, 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([]);
  });
});
