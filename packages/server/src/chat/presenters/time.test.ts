import { describe, expect, it } from 'vitest';
import { iso } from './time.js';

describe('iso', () => {
  it('writes what a Date would for every form of a UTC timestamp inside to_jsonb', () => {
    for (const s of [
      '2026-11-21T03:51:58.322456+00:00',
      '2026-11-21T03:51:58.322999+00:00',
      '2026-11-21T03:51:58.3+00:00',
      '2026-11-21T03:51:58.32+00:00',
      '2026-11-21T03:51:58+00:00',
      '0999-01-01T00:00:00.5+00:00',
    ]) {
      expect(iso(s)).toBe(new Date(s).toISOString());
    }
  });

  it('falls back to a Date for other offsets and formats', () => {
    for (const s of [
      '2026-11-21T05:51:58.322456+02:00',
      '2026-11-21 03:51:58.322+00',
      '2026-11-21T03:51:58.322Z',
    ]) {
      expect(iso(s)).toBe(new Date(s).toISOString());
    }
    const d = new Date('2026-11-21T03:51:58.322Z');
    expect(iso(d)).toBe('2026-11-21T03:51:58.322Z');
    expect(iso(null)).toBeUndefined();
    expect(iso(undefined)).toBeUndefined();
  });
});

describe('iso of a Date', () => {
  it('answers what toISOString does, for the same instant again and for invalid dates', () => {
    for (const ms of [0, -1, 1763700000123, 1763700000123, 253402300799999, -62198755200000]) {
      const d = new Date(ms);
      expect(iso(d)).toBe(d.toISOString());
      expect(iso(new Date(ms))).toBe(d.toISOString());
    }
    expect(() => iso(new Date(NaN))).toThrow(RangeError);
    expect(() => iso(new Date(NaN))).toThrow(RangeError);
  });

  it('stays right past the number of instants it remembers', () => {
    for (let i = 0; i < 10_000; i++) {
      const d = new Date(1763700000000 + i * 997);
      expect(iso(d)).toBe(d.toISOString());
    }
  });
});
