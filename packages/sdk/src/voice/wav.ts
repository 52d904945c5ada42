import { ATTACHMENT_CONSTANTS } from '@caseroom/protocol';

const { wavSampleRate, wavBitsPerSample, wavHeaderBytes } = ATTACHMENT_CONSTANTS;

/**
 * Resamples mono PCM (`-1..1` floats) from `fromRate` to `toRate`. Downsampling averages the input samples that
 * fall in each output sample's span (a box filter, enough against aliasing for speech at 16 kHz); upsampling
 * interpolates linearly.
 */
export function resamplePcm(samples: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate === toRate || samples.length === 0) return samples.slice();
  const ratio = fromRate / toRate;
  const length = Math.max(1, Math.round(samples.length / ratio));
  const out = new Float32Array(length);
  if (ratio > 1) {
    for (let i = 0; i < length; i++) {
      const start = Math.floor(i * ratio);
      const end = Math.min(samples.length, Math.max(start + 1, Math.floor((i + 1) * ratio)));
      let sum = 0;
      for (let j = start; j < end; j++) sum += samples[j] ?? 0;
      out[i] = sum / (end - start);
    }
  } else {
    for (let i = 0; i < length; i++) {
      const at = i * ratio;
      const left = Math.floor(at);
      const right = Math.min(samples.length - 1, left + 1);
      const a = samples[left] ?? 0;
      const b = samples[right] ?? a;
      out[i] = a + (b - a) * (at - left);
    }
  }
  return out;
}

/**
 * A WAV file (RIFF, PCM format 1, mono, 16-bit little-endian) of `samples` (`-1..1`, clipped) at `sampleRate`:
 * the 44-byte canonical header, then the samples. Chat-spec §9: the fallback records at 16000 Hz.
 */
export function encodeWav(
  samples: Float32Array,
  sampleRate: number = wavSampleRate,
): Uint8Array<ArrayBuffer> {
  const bytesPerSample = wavBitsPerSample / 8;
  const dataBytes = samples.length * bytesPerSample;
  const buffer = new ArrayBuffer(wavHeaderBytes + dataBytes);
  const view = new DataView(buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, wavHeaderBytes - 8 + dataBytes, true); // everything after this field
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * bytesPerSample, true); // byte rate
  view.setUint16(32, bytesPerSample, true); // block align
  view.setUint16(34, wavBitsPerSample, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i] ?? 0));
    view.setInt16(
      wavHeaderBytes + i * bytesPerSample,
      s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff),
      true,
    );
  }
  return new Uint8Array(buffer);
}

/** Concatenates PCM blocks as captured. */
export function concatPcm(blocks: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(blocks.reduce((n, b) => n + b.length, 0));
  let offset = 0;
  for (const block of blocks) {
    out.set(block, offset);
    offset += block.length;
  }
  return out;
}
