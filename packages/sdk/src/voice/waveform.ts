import { ATTACHMENT_CONSTANTS } from '@caseroom/protocol';

const { voiceSampleCount, voiceWaveBars, voiceWaveformUpdateThreshold } = ATTACHMENT_CONSTANTS;

const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

/**
 * The loudness of one analyser frame, 0..1: the root mean square of `getByteFrequencyData`'s bins (each bin maps
 * the analyser's -100..0 dB range onto 0..255), divided by 255.
 */
export function amplitudeOf(bins: Uint8Array): number {
  if (bins.length === 0) return 0;
  let sum = 0;
  for (const bin of bins) sum += bin * bin;
  return clamp01(Math.sqrt(sum / bins.length) / 255);
}

/**
 * `samples` brought to exactly `count` values 0..1 (chat-spec §9: 100 for `waveform_data`, 40 bars on screen):
 * more samples are averaged in equal buckets, fewer are interpolated linearly, none give silence. Values keep
 * three decimals, enough for drawing and small on the wire.
 */
export function resampleWaveform(samples: readonly number[], count: number = voiceSampleCount): number[] {
  const round = (n: number) => Math.round(clamp01(n) * 1000) / 1000;
  if (count <= 0) return [];
  if (samples.length === 0) return new Array<number>(count).fill(0);
  if (samples.length === 1) return new Array<number>(count).fill(round(samples[0] ?? 0));
  const out: number[] = [];
  if (samples.length >= count) {
    const size = samples.length / count;
    for (let i = 0; i < count; i++) {
      const start = Math.floor(i * size);
      const end = Math.max(start + 1, Math.floor((i + 1) * size));
      let sum = 0;
      for (let j = start; j < end; j++) sum += samples[j] ?? 0;
      out.push(round(sum / (end - start)));
    }
  } else {
    const step = (samples.length - 1) / (count - 1);
    for (let i = 0; i < count; i++) {
      const at = i * step;
      const left = Math.floor(at);
      const a = samples[left] ?? 0;
      const b = samples[Math.min(samples.length - 1, left + 1)] ?? a;
      out.push(round(a + (b - a) * (at - left)));
    }
  }
  return out;
}

/** The live bars: the newest `count` amplitudes, right-aligned, silence before the first sample. */
export function liveBars(samples: readonly number[], count: number = voiceWaveBars): number[] {
  const recent = samples.slice(-count).map(clamp01);
  return [...new Array<number>(count - recent.length).fill(0), ...recent];
}

/**
 * Whether the bars on screen should be replaced by `next`: some bar moved by more than the update threshold
 * (2 %, chat-spec §9), so near-identical frames do not re-render the recorder.
 */
export function barsChanged(
  shown: readonly number[],
  next: readonly number[],
  threshold: number = voiceWaveformUpdateThreshold,
): boolean {
  if (shown.length !== next.length) return true;
  return next.some((value, i) => Math.abs(value - (shown[i] ?? 0)) > threshold);
}

/** A recording's length as chat-spec §9 shows it: `mm:ss`, or `hh:mm:ss` from one hour. */
export function formatVoiceDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${pad(h)}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}
