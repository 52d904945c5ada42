import type {
  AudioContextLike,
  MediaEnvironment,
  MediaRecorderLike,
  MediaRecorderState,
  MediaStreamLike,
  MediaTrackLike,
  ScriptProcessorLike,
} from '../voice/media-environment.js';

/**
 * Fakes of the browser's media APIs (getUserMedia, MediaRecorder, AudioContext) for the voice recorder's tests
 * in Node: the recorder's own logic runs for real; only what the browser would do is played here. A test sets
 * the microphone's loudness (`level`), feeds PCM blocks to the WAV fallback (`feedPcm`) and breaks things
 * (`deny`, `failRecorder`).
 */
export interface FakeMedia {
  media: MediaEnvironment;
  /** Every stream handed out, with whether its tracks were stopped (the microphone released). */
  streams: { stopped: boolean }[];
  recorders: FakeMediaRecorder[];
  contexts: FakeAudioContext[];
  /** The loudness the analyser reports, 0..255 in every frequency bin. */
  level: number;
  /** Feeds one block of PCM to every running script processor (the WAV fallback). */
  feedPcm(block: Float32Array): void;
  /** Makes the next `getUserMedia` fail with this DOMException name. */
  deny(name?: string): void;
  /** The microphone goes away: every live track fires `ended`, as the browser does. */
  endTracks(): void;
}

export interface FakeMediaOptions {
  /** MIME types `MediaRecorder.isTypeSupported` accepts; default `['audio/webm']`. */
  types?: string[];
  mediaRecorder?: boolean;
  audioContext?: boolean;
  getUserMedia?: boolean;
  /** The audio context's sample rate; default 48000. */
  sampleRate?: number;
  /** The clock; default `Date.now` (moved by fake timers). */
  now?: () => number;
}

export class FakeMediaRecorder implements MediaRecorderLike {
  state: MediaRecorderState = 'inactive';
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly calls: string[] = [];
  /** The bit rate the recorder was asked for. */
  audioBitsPerSecond?: number;

  constructor(
    readonly stream: MediaStreamLike,
    readonly mimeType: string,
  ) {}

  start(): void {
    this.calls.push('start');
    this.state = 'recording';
  }
  pause(): void {
    this.calls.push('pause');
    this.state = 'paused';
  }
  resume(): void {
    this.calls.push('resume');
    this.state = 'recording';
  }
  /** Like the browser: the last data and `stop` arrive asynchronously. */
  stop(): void {
    this.calls.push('stop');
    if (this.state === 'inactive') return;
    this.state = 'inactive';
    setTimeout(() => {
      this.ondataavailable?.({ data: new Blob([`fake ${this.mimeType} audio`], { type: this.mimeType }) });
      this.onstop?.();
    }, 0);
  }
  /** The browser reports an encoding error. */
  fail(): void {
    this.onerror?.(new Error('fake recorder error'));
  }
}

export class FakeAudioContext implements AudioContextLike {
  readonly destination = { kind: 'destination' };
  closed = false;
  readonly processors: ScriptProcessorLike[] = [];
  analyserSettings?: { fftSize: number; minDecibels: number; maxDecibels: number };

  constructor(
    readonly sampleRate: number,
    private readonly level: () => number,
  ) {}

  createMediaStreamSource() {
    return { connect: () => undefined, disconnect: () => undefined };
  }
  createAnalyser() {
    const level = this.level;
    const analyser = {
      fftSize: 2048,
      minDecibels: -100,
      maxDecibels: -30,
      get frequencyBinCount() {
        return analyser.fftSize / 2;
      },
      getByteFrequencyData(array: Uint8Array) {
        array.fill(level());
      },
      disconnect: () => undefined,
    };
    this.analyserSettings = analyser;
    return analyser;
  }
  createScriptProcessor() {
    const processor: ScriptProcessorLike = {
      onaudioprocess: null,
      connect: () => undefined,
      disconnect: () => undefined,
    };
    this.processors.push(processor);
    return processor;
  }
  createGain() {
    return { gain: { value: 1 }, connect: () => undefined, disconnect: () => undefined };
  }
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

export function fakeMediaEnvironment(options: FakeMediaOptions = {}): FakeMedia {
  const types = options.types ?? ['audio/webm'];
  let denial: string | undefined;
  const fake: FakeMedia = {
    media: {},
    streams: [],
    recorders: [],
    contexts: [],
    level: 0,
    feedPcm(block) {
      for (const context of fake.contexts)
        for (const p of context.processors)
          p.onaudioprocess?.({ inputBuffer: { getChannelData: () => block } });
    },
    deny(name = 'NotAllowedError') {
      denial = name;
    },
    endTracks() {
      for (const track of tracks.splice(0)) track.onended?.(new Event('ended'));
    },
  };
  const tracks: MediaTrackLike[] = [];
  class Recorder extends FakeMediaRecorder {
    constructor(stream: MediaStreamLike, init?: { mimeType?: string; audioBitsPerSecond?: number }) {
      super(stream, init?.mimeType ?? 'audio/webm');
      this.audioBitsPerSecond = init?.audioBitsPerSecond;
      fake.recorders.push(this);
    }
    static isTypeSupported(type: string): boolean {
      return types.includes(type);
    }
  }
  class Context extends FakeAudioContext {
    constructor() {
      super(options.sampleRate ?? 48_000, () => fake.level);
      fake.contexts.push(this);
    }
  }
  fake.media = {
    getUserMedia:
      options.getUserMedia === false
        ? undefined
        : async () => {
            if (denial) {
              const name = denial;
              denial = undefined;
              throw Object.assign(new Error(name), { name });
            }
            const record = { stopped: false };
            fake.streams.push(record);
            const track: MediaTrackLike = {
              onended: null,
              stop: () => {
                record.stopped = true; // like the browser: stop() fires no `ended`
                tracks.splice(tracks.indexOf(track) >>> 0, 1);
              },
            };
            tracks.push(track);
            return { getTracks: () => [track] };
          },
    MediaRecorder: options.mediaRecorder === false ? undefined : Recorder,
    AudioContext: options.audioContext === false ? undefined : Context,
    now: options.now ?? (() => Date.now()),
  };
  return fake;
}
