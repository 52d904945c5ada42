import { describe, expect, it } from 'vitest';
import { reconnectDelay } from './backoff.js';

describe('reconnectDelay', () => {
  it('grows with the attempt and is capped at 25 s', () => {
    expect(reconnectDelay(1, () => 1)).toBe(500);
    expect(reconnectDelay(2, () => 1)).toBe(1000);
    expect(reconnectDelay(5, () => 1)).toBe(8000);
    expect(reconnectDelay(7, () => 1)).toBe(25_000);
    expect(reconnectDelay(50, () => 1)).toBe(25_000);
  });

  it('is random between half and all of the ceiling', () => {
    expect(reconnectDelay(7, () => 0)).toBe(12_500);
    const seen = new Set(Array.from({ length: 20 }, () => reconnectDelay(6)));
    for (const delay of seen) {
      expect(delay).toBeGreaterThanOrEqual(8000);
      expect(delay).toBeLessThanOrEqual(16_000);
    }
    expect(seen.size).toBeGreaterThan(1);
  });
});
