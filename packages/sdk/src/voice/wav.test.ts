import { describe, expect, it } from 'vitest';
import { concatPcm, encodeWav, resamplePcm } from './wav.js';

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.slice(from, to));

describe('encodeWav', () => {
  it('writes the 44-byte PCM header of a 16 kHz, 16-bit mono file', () => {
    const wav = encodeWav(new Float32Array(10));
    const view = new DataView(wav.buffer);
    expect(wav.byteLength).toBe(44 + 20);
    expect(ascii(wav, 0, 4)).toBe('RIFF');
    expect(view.getUint32(4, true)).toBe(36 + 20);
    expect(ascii(wav, 8, 16)).toBe('WAVEfmt ');
    expect(view.getUint32(16, true)).toBe(16);
    expect(view.getUint16(20, true)).toBe(1); // PCM
    expect(view.getUint16(22, true)).toBe(1); // mono
    expect(view.getUint32(24, true)).toBe(16_000);
    expect(view.getUint32(28, true)).toBe(32_000); // byte rate
    expect(view.getUint16(32, true)).toBe(2); // block align
    expect(view.getUint16(34, true)).toBe(16);
    expect(ascii(wav, 36, 40)).toBe('data');
    expect(view.getUint32(40, true)).toBe(20);
  });

  it('stores samples as little-endian int16, clipped to -1..1', () => {
    const wav = encodeWav(new Float32Array([0, 1, -1, 0.5, -0.5, 2, -3]));
    const view = new DataView(wav.buffer);
    const samples = Array.from({ length: 7 }, (_, i) => view.getInt16(44 + i * 2, true));
    expect(samples).toEqual([0, 32767, -32768, 16384, -16384, 32767, -32768]);
  });

  it('takes another sample rate into the header', () => {
    const view = new DataView(encodeWav(new Float32Array(0), 8000).buffer);
    expect(view.getUint32(24, true)).toBe(8000);
    expect(view.getUint32(40, true)).toBe(0);
  });
});

describe('resamplePcm', () => {
  it('downsamples 48 kHz to 16 kHz by averaging each span of three', () => {
    const out = resamplePcm(new Float32Array([0, 0.3, 0.6, 1, 1, 1]), 48_000, 16_000);
    expect(Array.from(out).map((n) => Math.round(n * 100) / 100)).toEqual([0.3, 1]);
  });

  it('keeps the duration: one second at 44.1 kHz becomes 16000 samples', () => {
    expect(resamplePcm(new Float32Array(44_100), 44_100, 16_000).length).toBe(16_000);
  });

  it('upsamples by linear interpolation and copies at the same rate', () => {
    expect(Array.from(resamplePcm(new Float32Array([0, 1]), 8000, 16_000))).toEqual([0, 0.5, 1, 1]);
    const same = new Float32Array([0.25]);
    const copy = resamplePcm(same, 16_000, 16_000);
    expect(Array.from(copy)).toEqual([0.25]);
    expect(copy).not.toBe(same);
  });

  it('concatenates captured blocks in order', () => {
    expect(Array.from(concatPcm([new Float32Array([1]), new Float32Array([0.5, 0])]))).toEqual([1, 0.5, 0]);
  });
});
