/**
 * The browser APIs the voice recorder uses, as the small structural shapes it needs. The recorder takes them
 * injected (default: the page's own), so its logic runs unchanged in Node against fakes of these APIs only
 * (`@caseroom/sdk/testing`'s `fakeMediaEnvironment`).
 */

/** The part of `MediaStream` the recorder touches: its tracks, to release the microphone. */
export interface MediaStreamLike {
  getTracks(): MediaTrackLike[];
}

/** A microphone track: stopped to release it; `onended` when the device goes (unplugged, permission revoked). */
export interface MediaTrackLike {
  stop(): void;
  onended?: ((event: unknown) => void) | null;
}

export type MediaRecorderState = 'inactive' | 'recording' | 'paused';

/** The part of `MediaRecorder` the recorder uses (event handler properties, as the browser has them). */
export interface MediaRecorderLike {
  readonly state: MediaRecorderState;
  readonly mimeType: string;
  ondataavailable: ((event: { data: Blob }) => void) | null;
  onstop: (() => void) | null;
  onerror: ((event: unknown) => void) | null;
  start(timesliceMs?: number): void;
  pause(): void;
  resume(): void;
  stop(): void;
}

export interface MediaRecorderConstructorLike {
  new (
    stream: MediaStreamLike,
    options?: { mimeType?: string; audioBitsPerSecond?: number },
  ): MediaRecorderLike;
  isTypeSupported(mimeType: string): boolean;
}

export interface AnalyserNodeLike {
  fftSize: number;
  minDecibels: number;
  maxDecibels: number;
  readonly frequencyBinCount: number;
  getByteFrequencyData(array: Uint8Array): void;
  disconnect(): void;
}

/** PCM blocks for the WAV fallback (a `ScriptProcessorNode`). */
export interface ScriptProcessorLike {
  onaudioprocess:
    ((event: { inputBuffer: { getChannelData(channel: number): Float32Array } }) => void) | null;
  connect(destination: unknown): void;
  disconnect(): void;
}

export interface AudioContextLike {
  readonly sampleRate: number;
  readonly destination: unknown;
  createMediaStreamSource(stream: MediaStreamLike): { connect(node: unknown): void; disconnect(): void };
  createAnalyser(): AnalyserNodeLike;
  createScriptProcessor(bufferSize: number, inputs: number, outputs: number): ScriptProcessorLike;
  createGain(): { gain: { value: number }; connect(node: unknown): void; disconnect(): void };
  close(): Promise<void>;
}

export type AudioContextConstructorLike = new () => AudioContextLike;

export interface MediaEnvironment {
  /** `navigator.mediaDevices.getUserMedia`; missing outside a secure context. */
  getUserMedia?: (constraints: { audio: boolean }) => Promise<MediaStreamLike>;
  MediaRecorder?: MediaRecorderConstructorLike;
  AudioContext?: AudioContextConstructorLike;
  /** Milliseconds of a monotonic clock; default `performance.now()` (fake timers move it too). */
  now?: () => number;
}

/** The page's own APIs, read when called (a page may replace them after the SDK loaded). */
export function browserMediaEnvironment(): MediaEnvironment {
  const g = globalThis as unknown as {
    navigator?: { mediaDevices?: { getUserMedia?: (c: { audio: boolean }) => Promise<MediaStreamLike> } };
    MediaRecorder?: MediaRecorderConstructorLike;
    AudioContext?: AudioContextConstructorLike;
    webkitAudioContext?: AudioContextConstructorLike;
  };
  const devices = g.navigator?.mediaDevices;
  return {
    getUserMedia: devices?.getUserMedia ? (constraints) => devices.getUserMedia!(constraints) : undefined,
    MediaRecorder: g.MediaRecorder,
    AudioContext: g.AudioContext ?? g.webkitAudioContext,
  };
}
