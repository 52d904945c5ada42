import { ATTACHMENT_CONSTANTS } from '@caseroom/protocol';
import type { NoticeInput } from '../notifications/notifications.js';
import { StateStore, type Store } from '../stores/store.js';
import {
  browserMediaEnvironment,
  type AnalyserNodeLike,
  type AudioContextLike,
  type MediaEnvironment,
  type MediaRecorderLike,
  type MediaStreamLike,
} from './media-environment.js';
import { chooseVoiceFormat, voiceFile, wavOf, type VoiceFormat } from './voice-format.js';
import { amplitudeOf, barsChanged, liveBars, resampleWaveform } from './waveform.js';

const C = ATTACHMENT_CONSTANTS;

/** The microphone and recording notices of chat-spec §8, word for word (the spec's spelling included). */
export const VOICE_NOTICE_TEXTS = {
  permissionDenied: 'Please grant permission to use microhpone',
  startError: 'Error starting recording',
  recordingError: 'An error has occurred during recording',
  notSupported: 'Media recording not supported',
} as const;

/** Composer default of chat-spec §9: a finished recording is sent at once. */
export const VOICE_RECORDER_DEFAULTS = { sendImmediately: true } as const;

/** chat-spec §4 Recording. */
export type RecordingState = 'stopped' | 'recording' | 'paused' | 'error';

/** A finished recording, ready to upload as a `voiceRecording` attachment. */
export interface VoiceRecording {
  /** A `File` named `voice-recording-<iso time>.<webm|mp4|wav>` (a plain `Blob` where `File` does not exist). */
  file: Blob;
  name: string;
  /** `audio/webm`, `audio/mp4` or `audio/wav` (without codec parameters). */
  mime_type: string;
  file_size: number;
  /** Seconds recorded, paused time excluded. */
  duration: number;
  /** 100 amplitudes 0..1 (chat-spec §9). */
  waveform_data: number[];
}

export interface VoiceRecorderSnapshot {
  state: RecordingState;
  /** Waiting for the microphone (permission prompt) or for the encoder's last data. */
  pending?: 'starting' | 'stopping';
  /** Whole seconds recorded so far, paused time excluded (for the mm:ss timer). */
  seconds: number;
  /** The live waveform: 40 bars 0..1, newest last; replaced only when a bar moves by more than 2 %. */
  bars: readonly number[];
  /** The format being recorded. */
  mimeType?: string;
  /** The notice text of the last error (state `error`). */
  error?: string;
  /** The last finished recording. */
  recording?: VoiceRecording;
}

export interface VoiceRecorderOptions {
  /** The browser APIs; default the page's own (`browserMediaEnvironment()`). */
  media?: MediaEnvironment;
  /** Where the §8 notices go, typically `client.notifications.add`. */
  notify?: (notice: NoticeInput) => void;
}

const isPermissionError = (error: unknown) => {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'NotAllowedError' || name === 'PermissionDeniedError' || name === 'SecurityError';
};

interface Session {
  stream: MediaStreamLike;
  format: VoiceFormat;
  recorder?: MediaRecorderLike;
  chunks: Blob[];
  context?: AudioContextLike;
  analyser?: AnalyserNodeLike;
  bins?: Uint8Array<ArrayBuffer>;
  teardownNodes: (() => void)[];
  pcm: Float32Array[];
  amplitudes: number[];
  /** Recorded milliseconds before the current segment. */
  activeMs: number;
  /** When the current recording segment began (undefined while paused). */
  segmentStart?: number;
  timer?: ReturnType<typeof setInterval>;
  finish?: (recording: VoiceRecording | undefined) => void;
}

/** Speech needs no music bit rate: 32 kbit/s Opus or AAC is clear voice at a quarter of the browser's default. */
export const VOICE_BITS_PER_SECOND = 32_000;

const SILENT_BARS: readonly number[] = Object.freeze(new Array<number>(C.voiceWaveBars).fill(0));
const WAV_BLOCK_SIZE = 4096;

/**
 * The voice recorder (chat-spec §4 Recording, §9 constants), framework-free. States: `stopped` -> `recording`
 * (start) <-> `paused` (pause/resume) -> `stopped` (stop resolves the recording); any failure -> `error` with the
 * §8 notice and the recording cancelled; start again from `stopped` or `error`. Records webm, else mp4/AAC, else
 * WAV (16 kHz, 16-bit); samples the loudness every 60 ms through an analyser (FFT 32, -100..0 dB) for the live
 * bars and the 100-value `waveform_data`.
 */
export class VoiceRecorder implements Store<VoiceRecorderSnapshot> {
  private readonly store = new StateStore<VoiceRecorderSnapshot>({
    state: 'stopped',
    seconds: 0,
    bars: SILENT_BARS,
  });
  private session: Session | undefined;
  private stopping: Promise<VoiceRecording | undefined> | undefined;
  /** Bumped by every cancel and failure: late answers of an older start are dropped. */
  private generation = 0;

  constructor(private readonly options: VoiceRecorderOptions = {}) {}

  readonly getSnapshot = (): VoiceRecorderSnapshot => this.store.getSnapshot();
  readonly subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  private get media(): MediaEnvironment {
    return this.options.media ?? browserMediaEnvironment();
  }

  private now(): number {
    return this.options.media?.now?.() ?? performance.now();
  }

  /** Milliseconds recorded so far, paused time excluded. */
  elapsedMs(): number {
    const s = this.session;
    if (!s) return 0;
    return s.activeMs + (s.segmentStart === undefined ? 0 : this.now() - s.segmentStart);
  }

  /** Asks for the microphone and starts recording (from `stopped` or `error`; otherwise nothing happens). */
  async start(): Promise<void> {
    const { state, pending } = this.getSnapshot();
    if (pending || state === 'recording' || state === 'paused') return;
    const media = this.media;
    const format = chooseVoiceFormat(media);
    if (!media.getUserMedia || !media.MediaRecorder || !format) {
      this.fail(VOICE_NOTICE_TEXTS.notSupported);
      return;
    }
    const generation = ++this.generation;
    this.store.set({ state, pending: 'starting', seconds: 0, bars: SILENT_BARS });
    let stream: MediaStreamLike;
    try {
      stream = await media.getUserMedia({ audio: true });
    } catch (error) {
      if (generation === this.generation)
        this.fail(
          isPermissionError(error) ? VOICE_NOTICE_TEXTS.permissionDenied : VOICE_NOTICE_TEXTS.startError,
        );
      return;
    }
    if (generation !== this.generation) {
      stopTracks(stream); // cancelled while the prompt was open
      return;
    }
    const session: Session = {
      stream,
      format,
      chunks: [],
      teardownNodes: [],
      pcm: [],
      amplitudes: [],
      activeMs: 0,
    };
    this.session = session;
    // The microphone going away (unplugged, permission revoked) ends the recording as an error.
    for (const track of stream.getTracks()) {
      track.onended = () => {
        if (this.session === session) this.fail(VOICE_NOTICE_TEXTS.recordingError);
      };
    }
    try {
      this.listen(session, media);
      if (format.extension !== 'wav') this.startRecorder(session, media);
    } catch {
      this.fail(VOICE_NOTICE_TEXTS.startError);
      return;
    }
    session.segmentStart = this.now();
    this.store.set({ state: 'recording', seconds: 0, bars: SILENT_BARS, mimeType: format.mimeType });
    this.startSampling(session);
  }

  pause(): void {
    const s = this.session;
    if (!s || this.stopping || this.getSnapshot().state !== 'recording') return;
    try {
      if (s.recorder?.state === 'recording') s.recorder.pause();
    } catch {
      this.fail(VOICE_NOTICE_TEXTS.recordingError);
      return;
    }
    this.closeSegment(s);
    this.store.patch({ state: 'paused', seconds: Math.floor(s.activeMs / 1000) });
  }

  resume(): void {
    const s = this.session;
    if (!s || this.stopping || this.getSnapshot().state !== 'paused') return;
    try {
      if (s.recorder?.state === 'paused') s.recorder.resume();
    } catch {
      this.fail(VOICE_NOTICE_TEXTS.recordingError);
      return;
    }
    s.segmentStart = this.now();
    this.store.patch({ state: 'recording' });
    this.startSampling(s);
  }

  /**
   * Stops and resolves the recording once the encoder delivered its last data; `undefined` when there was
   * nothing to stop, or the recording was cancelled or failed meanwhile (the snapshot says why).
   */
  stop(): Promise<VoiceRecording | undefined> {
    if (this.stopping) return this.stopping;
    const s = this.session;
    const { state } = this.getSnapshot();
    if (!s || (state !== 'recording' && state !== 'paused')) return Promise.resolve(undefined);
    this.closeSegment(s);
    this.store.patch({ pending: 'stopping', seconds: Math.floor(s.activeMs / 1000) });
    const stopping = new Promise<VoiceRecording | undefined>((resolve) => {
      s.finish = resolve;
    });
    this.stopping = stopping;
    const recorder = s.recorder;
    if (!recorder || recorder.state === 'inactive') {
      this.finish(s); // WAV: the PCM is here already
    } else {
      try {
        recorder.stop(); // its last data, then `onstop` -> finish
      } catch {
        this.fail(VOICE_NOTICE_TEXTS.recordingError);
      }
    }
    return stopping;
  }

  /** Drops the recording (any state) and releases the microphone; an error is cleared back to `stopped`. */
  cancel(): void {
    this.generation++;
    this.teardown();
    this.store.set({ state: 'stopped', seconds: 0, bars: SILENT_BARS });
  }

  /** Same as `cancel()`: call when the recorder's screen goes away. */
  dispose(): void {
    this.cancel();
  }

  private listen(session: Session, media: MediaEnvironment): void {
    const AudioContext = media.AudioContext;
    const wav = session.format.extension === 'wav';
    if (!AudioContext) return;
    let context: AudioContextLike;
    try {
      context = new AudioContext();
    } catch (error) {
      if (wav) throw error;
      return; // no waveform, the recording itself still works
    }
    session.context = context;
    void (context as { resume?: () => Promise<void> }).resume?.().catch(() => undefined);
    const source = context.createMediaStreamSource(session.stream);
    session.teardownNodes.push(() => source.disconnect());
    const analyser = context.createAnalyser();
    analyser.fftSize = C.voiceFftSize;
    analyser.minDecibels = C.voiceMinDecibels;
    analyser.maxDecibels = C.voiceMaxDecibels;
    source.connect(analyser);
    session.analyser = analyser;
    session.bins = new Uint8Array(analyser.frequencyBinCount);
    session.teardownNodes.push(() => analyser.disconnect());
    if (!wav) return;
    // WAV fallback: raw PCM blocks while recording; a silent gain keeps the processor running without echo.
    const processor = context.createScriptProcessor(WAV_BLOCK_SIZE, 1, 1);
    const mute = context.createGain();
    mute.gain.value = 0;
    processor.onaudioprocess = (event) => {
      if (this.session === session && this.getSnapshot().state === 'recording' && !this.stopping)
        session.pcm.push(event.inputBuffer.getChannelData(0).slice());
    };
    source.connect(processor);
    processor.connect(mute);
    mute.connect(context.destination);
    session.teardownNodes.push(() => {
      processor.onaudioprocess = null;
      processor.disconnect();
      mute.disconnect();
    });
  }

  private startRecorder(session: Session, media: MediaEnvironment): void {
    const Recorder = media.MediaRecorder!;
    const recorder = new Recorder(session.stream, {
      mimeType: session.format.recorderType,
      audioBitsPerSecond: VOICE_BITS_PER_SECOND,
    });
    session.recorder = recorder;
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) session.chunks.push(event.data);
    };
    recorder.onerror = () => {
      if (this.session === session) this.fail(VOICE_NOTICE_TEXTS.recordingError);
    };
    // The browser stops a recorder by itself when its tracks end: unless we asked, that is a failure.
    recorder.onstop = () => {
      if (this.session !== session) return;
      if (this.stopping) this.finish(session);
      else this.fail(VOICE_NOTICE_TEXTS.recordingError);
    };
    recorder.start();
  }

  private startSampling(session: Session): void {
    clearInterval(session.timer);
    session.timer = setInterval(() => this.sample(session), C.voiceSampleIntervalMs);
  }

  private sample(session: Session): void {
    if (this.session !== session || this.getSnapshot().state !== 'recording') return;
    let amplitude = 0;
    if (session.analyser && session.bins) {
      session.analyser.getByteFrequencyData(session.bins);
      amplitude = amplitudeOf(session.bins);
    }
    session.amplitudes.push(amplitude);
    const current = this.getSnapshot();
    const bars = liveBars(session.amplitudes);
    const seconds = Math.floor(this.elapsedMs() / 1000);
    this.store.patch({
      seconds,
      bars: barsChanged(current.bars, bars) ? bars : current.bars,
    });
  }

  /** Ends the running segment: its time counts, sampling stops. */
  private closeSegment(session: Session): void {
    clearInterval(session.timer);
    session.timer = undefined;
    if (session.segmentStart !== undefined) session.activeMs += this.now() - session.segmentStart;
    session.segmentStart = undefined;
  }

  private finish(session: Session): void {
    const { format } = session;
    const { file, name } =
      format.extension === 'wav'
        ? voiceFile(format, [wavOf(session.pcm, session.context?.sampleRate ?? C.wavSampleRate)])
        : voiceFile(format, session.chunks);
    const recording: VoiceRecording = {
      file,
      name,
      mime_type: format.mimeType,
      file_size: file.size,
      duration: Math.round(session.activeMs) / 1000,
      waveform_data: resampleWaveform(session.amplitudes, C.voiceSampleCount),
    };
    const resolve = session.finish;
    session.finish = undefined;
    this.teardown();
    this.store.set({ state: 'stopped', seconds: 0, bars: SILENT_BARS, mimeType: format.mimeType, recording });
    resolve?.(recording);
  }

  /** Moves to `error` with the notice; whatever was recorded is dropped. */
  private fail(text: string): void {
    this.generation++;
    this.teardown();
    this.store.set({ state: 'error', seconds: 0, bars: SILENT_BARS, error: text });
    this.options.notify?.({ text, type: 'error' });
  }

  /** Releases everything of the session; a pending `stop()` resolves `undefined`. */
  private teardown(): void {
    const s = this.session;
    this.session = undefined;
    this.stopping = undefined;
    if (!s) return;
    clearInterval(s.timer);
    const recorder = s.recorder;
    if (recorder) {
      recorder.ondataavailable = null;
      recorder.onstop = null;
      recorder.onerror = null;
      try {
        if (recorder.state !== 'inactive') recorder.stop();
      } catch {
        // already broken: nothing left to stop
      }
    }
    for (const release of s.teardownNodes) {
      try {
        release();
      } catch {
        // a node that never connected
      }
    }
    void s.context?.close().catch(() => undefined);
    for (const track of s.stream.getTracks()) track.onended = null;
    stopTracks(s.stream);
    s.finish?.(undefined);
  }
}

function stopTracks(stream: MediaStreamLike): void {
  for (const track of stream.getTracks()) track.stop();
}
