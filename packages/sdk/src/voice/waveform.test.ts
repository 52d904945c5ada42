import { describe, expect, it } from 'vitest';
import { amplitudeOf, barsChanged, formatVoiceDuration, liveBars, resampleWaveform } from './waveform.js';

describe('resampleWaveform', () => {
  it('averages many samples into 100 equal buckets', () => {
    const samples = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? 0.9 : 0));
    const out = resampleWaveform(samples);
    expect(out).toHaveLength(100);
    expect(new Set(out)).toEqual(new Set([0.3]));
  });

  it('keeps the shape of an uneven count (250 -> 100)', () => {
    const samples = Array.from({ length: 250 }, (_, i) => i / 249);
    const out = resampleWaveform(samples);
    expect(out).toHaveLength(100);
    expect(out[0]).toBeLessThan(0.01);
    expect(out[99]).toBeGreaterThan(0.99);
    for (let i = 1; i < out.length; i++) expect(out[i]!).toBeGreaterThanOrEqual(out[i - 1]!);
  });

  it('interpolates few samples up to the count', () => {
    expect(resampleWaveform([0, 1], 5)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(resampleWaveform([0.4], 3)).toEqual([0.4, 0.4, 0.4]);
  });

  it('gives silence for no samples and clamps to 0..1 with three decimals', () => {
    expect(resampleWaveform([], 4)).toEqual([0, 0, 0, 0]);
    expect(resampleWaveform([-1, 2, 0.12345, Number.NaN], 4)).toEqual([0, 1, 0.123, 0]);
  });
});

describe('amplitudeOf', () => {
  it('is the RMS of the byte bins over 255', () => {
    expect(amplitudeOf(new Uint8Array(16))).toBe(0);
    expect(amplitudeOf(new Uint8Array(16).fill(255))).toBe(1);
    expect(amplitudeOf(new Uint8Array([255, 0]))).toBeCloseTo(Math.SQRT1_2, 6);
    expect(amplitudeOf(new Uint8Array(0))).toBe(0);
  });
});

describe('live bars', () => {
  it('shows the newest 40 samples, right-aligned after silence', () => {
    expect(liveBars([0.5, 1], 4)).toEqual([0, 0, 0.5, 1]);
    const many = Array.from({ length: 50 }, (_, i) => i / 100);
    const bars = liveBars(many);
    expect(bars).toHaveLength(40);
    expect(bars[0]).toBe(0.1);
    expect(bars[39]).toBe(0.49);
  });

  it('change only when a bar moves by more than 2 %', () => {
    expect(barsChanged([0.5, 0.5], [0.51, 0.49])).toBe(false);
    expect(barsChanged([0.5, 0.5], [0.5, 0.53])).toBe(true);
    expect(barsChanged([0.5], [0.5, 0.5])).toBe(true);
  });
});

describe('formatVoiceDuration', () => {
  it('shows mm:ss, and hh:mm:ss from one hour', () => {
    expect(formatVoiceDuration(0)).toBe('00:00');
    expect(formatVoiceDuration(5.9)).toBe('00:05');
    expect(formatVoiceDuration(61)).toBe('01:01');
    expect(formatVoiceDuration(3599)).toBe('59:59');
    expect(formatVoiceDuration(3661)).toBe('01:01:01');
    expect(formatVoiceDuration(-3)).toBe('00:00');
  });
});
