import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Notifications } from '../notifications/notifications.js';
import { fakeMediaEnvironment, type FakeMediaOptions } from '../testing/fake-media.js';
import { canRecordVoice } from './voice-format.js';
import {
  VOICE_NOTICE_TEXTS,
  VoiceRecorder,
  type RecordingState,
  type VoiceRecorderSnapshot,
} from './voice-recorder.js';

function setup(options: FakeMediaOptions = {}) {
  const fake = fakeMediaEnvironment(options);
  const notifications = new Notifications();
  const recorder = new VoiceRecorder({ media: fake.media, notify: (n) => notifications.add(n) });
  const seen: VoiceRecorderSnapshot[] = [];
  recorder.subscribe(() => seen.push(recorder.getSnapshot()));
  const states = () =>
    seen.map((s) => s.state + (s.pending ? `:${s.pending}` : '')).filter((s, i, all) => s !== all[i - 1]);
  const notices = () => notifications.getSnapshot().map((n) => n.text);
  return { fake, notifications, recorder, states, notices };
}

/** Lets the fake browser's asynchronous callbacks (permission answer, last data) run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('VoiceRecorder', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-24T08:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('records webm: start, pause, resume, stop, with paused time left out of the duration', async () => {
    const { fake, recorder, states, notices } = setup();
    await recorder.start();
    expect(recorder.getSnapshot()).toMatchObject({ state: 'recording', mimeType: 'audio/webm', seconds: 0 });
    const mediaRecorder = fake.recorders[0]!;
    expect(mediaRecorder.mimeType).toBe('audio/webm');
    expect(mediaRecorder.audioBitsPerSecond).toBe(32_000);
    expect(fake.contexts[0]!.analyserSettings).toMatchObject({
      fftSize: 32,
      minDecibels: -100,
      maxDecibels: 0,
    });

    fake.level = 128;
    vi.advanceTimersByTime(1_020); // the timer follows the 60 ms samples
    expect(recorder.getSnapshot().seconds).toBe(1);
    vi.advanceTimersByTime(980);
    recorder.pause();
    expect(recorder.getSnapshot()).toMatchObject({ state: 'paused', seconds: 2 });
    vi.advanceTimersByTime(5_000); // paused: neither time nor samples count
    expect(recorder.elapsedMs()).toBe(2_000);
    recorder.resume();
    fake.level = 255;
    vi.advanceTimersByTime(1_000);

    const stopped = recorder.stop();
    expect(recorder.getSnapshot()).toMatchObject({ pending: 'stopping', seconds: 3 });
    await settle();
    const recording = await stopped;

    expect(states()).toEqual([
      'stopped:starting',
      'recording',
      'paused',
      'recording',
      'recording:stopping',
      'stopped',
    ]);
    expect(mediaRecorder.calls).toEqual(['start', 'pause', 'resume', 'stop']);
    expect(recording).toBeDefined();
    expect(recording!.duration).toBe(3);
    expect(recording!.mime_type).toBe('audio/webm');
    expect(recording!.name).toBe('voice-recording-2026-11-24T08-00-08-000Z.webm');
    expect(recording!.file).toBeInstanceOf(File);
    expect((recording!.file as File).name).toBe(recording!.name);
    expect(recording!.file.type).toBe('audio/webm');
    expect(recording!.file_size).toBe(recording!.file.size);
    expect(await recording!.file.text()).toBe('fake audio/webm audio');
    // 33 samples at half loudness, then 16 at full, stretched over 100 values.
    const wave = recording!.waveform_data;
    expect(wave).toHaveLength(100);
    expect(wave[0]).toBeCloseTo(128 / 255, 2);
    expect(wave[99]).toBe(1);
    expect(recorder.getSnapshot()).toMatchObject({ state: 'stopped', recording });
    // The microphone and the audio graph are released.
    expect(fake.streams).toEqual([{ stopped: true }]);
    expect(fake.contexts[0]!.closed).toBe(true);
    expect(notices()).toEqual([]);
  });

  it('samples every 60 ms into 40 live bars, replaced only on a change above 2 %', async () => {
    const { fake, recorder } = setup();
    await recorder.start();
    const silent = recorder.getSnapshot().bars;
    expect(silent).toHaveLength(40);
    vi.advanceTimersByTime(60 * 3);
    expect(recorder.getSnapshot().bars).toBe(silent); // silence: nothing moved
    fake.level = 200;
    vi.advanceTimersByTime(60);
    const loud = recorder.getSnapshot().bars;
    expect(loud).not.toBe(silent);
    expect(loud[39]).toBeCloseTo(200 / 255, 5);
    expect(loud[38]).toBe(0);
    // Frames that differ by less than 2 % keep the same bars (no re-render) ...
    fake.level = 201;
    vi.advanceTimersByTime(60);
    // ... the newest bar is then close to the previous one, but the shift moved 200 into bar 38: a change.
    expect(recorder.getSnapshot().bars).not.toBe(loud);
    const after = recorder.getSnapshot().bars;
    fake.level = 0;
    recorder.pause();
    vi.advanceTimersByTime(600);
    expect(recorder.getSnapshot().bars).toBe(after);
    recorder.cancel();
  });

  it('keeps the bars when a frame moves less than 2 %', async () => {
    const { fake, recorder } = setup();
    await recorder.start();
    fake.level = 255;
    vi.advanceTimersByTime(60 * 40); // every bar full
    const full = recorder.getSnapshot().bars;
    expect(new Set(full)).toEqual(new Set([1]));
    fake.level = 252; // 1.2 % lower
    vi.advanceTimersByTime(60 * 5);
    expect(recorder.getSnapshot().bars).toBe(full);
    fake.level = 240; // 5.9 % lower
    vi.advanceTimersByTime(60);
    expect(recorder.getSnapshot().bars).not.toBe(full);
    recorder.cancel();
  });

  it('asks for the microphone with getUserMedia({ audio: true })', async () => {
    const fake = fakeMediaEnvironment();
    const getUserMedia = vi.fn(fake.media.getUserMedia!);
    const recorder = new VoiceRecorder({ media: { ...fake.media, getUserMedia } });
    await recorder.start();
    expect(getUserMedia).toHaveBeenCalledWith({ audio: true });
    await recorder.start(); // already recording: no second prompt
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    recorder.cancel();
  });

  it('a denied permission is an error with the spec notice; start again works', async () => {
    const { fake, recorder, states, notices, notifications } = setup();
    fake.deny('NotAllowedError');
    await recorder.start();
    expect(recorder.getSnapshot()).toMatchObject({
      state: 'error',
      error: VOICE_NOTICE_TEXTS.permissionDenied,
    });
    expect(notices()).toEqual(['Please grant permission to use microhpone']);
    expect(notifications.getSnapshot()[0]!.type).toBe('error');
    expect(fake.recorders).toHaveLength(0);

    await recorder.start();
    expect(states()).toEqual(['stopped:starting', 'error', 'error:starting', 'recording']);
    expect(recorder.getSnapshot().error).toBeUndefined();
    recorder.cancel();
    expect(recorder.getSnapshot().state).toBe('stopped');
  });

  it('any other getUserMedia failure is "Error starting recording"', async () => {
    const { fake, recorder, notices } = setup();
    fake.deny('NotFoundError');
    await recorder.start();
    expect(recorder.getSnapshot().state).toBe('error');
    expect(notices()).toEqual(['Error starting recording']);
  });

  it('a MediaRecorder that refuses to start is "Error starting recording" and releases the microphone', async () => {
    const { fake, recorder, notices } = setup();
    const original = fake.media.MediaRecorder!;
    fake.media.MediaRecorder = Object.assign(
      class extends original {
        override start(): void {
          throw new Error('NotSupportedError');
        }
      },
      { isTypeSupported: original.isTypeSupported },
    );
    await recorder.start();
    expect(recorder.getSnapshot().state).toBe('error');
    expect(notices()).toEqual(['Error starting recording']);
    expect(fake.streams).toEqual([{ stopped: true }]);
  });

  it('without MediaRecorder or getUserMedia: "Media recording not supported"', async () => {
    for (const options of [{ mediaRecorder: false }, { getUserMedia: false }]) {
      const { fake, recorder, notices } = setup(options);
      expect(canRecordVoice(fake.media)).toBe(false);
      await recorder.start();
      expect(recorder.getSnapshot()).toMatchObject({
        state: 'error',
        error: 'Media recording not supported',
      });
      expect(notices()).toEqual(['Media recording not supported']);
    }
    expect(canRecordVoice(fakeMediaEnvironment().media)).toBe(true);
    // Neither webm nor mp4 and no AudioContext for the WAV fallback.
    const { fake, recorder } = setup({ types: [], audioContext: false });
    expect(canRecordVoice(fake.media)).toBe(false);
    await recorder.start();
    expect(recorder.getSnapshot().error).toBe(VOICE_NOTICE_TEXTS.notSupported);
  });

  it('an error while recording cancels it: "An error has occurred during recording"', async () => {
    const { fake, recorder, states, notices } = setup();
    await recorder.start();
    vi.advanceTimersByTime(1_000);
    fake.recorders[0]!.fail();
    expect(recorder.getSnapshot()).toMatchObject({ state: 'error', seconds: 0 });
    expect(recorder.getSnapshot().recording).toBeUndefined();
    expect(notices()).toEqual(['An error has occurred during recording']);
    expect(fake.streams).toEqual([{ stopped: true }]);
    expect(fake.contexts[0]!.closed).toBe(true);
    expect(await recorder.stop()).toBeUndefined(); // nothing left to stop
    expect(states()).toEqual(['stopped:starting', 'recording', 'error']);
  });

  it('the microphone going away is an error: the track ends, or the browser stops the recorder', async () => {
    const { fake, recorder, notices } = setup();
    await recorder.start();
    fake.endTracks();
    expect(recorder.getSnapshot()).toMatchObject({
      state: 'error',
      error: VOICE_NOTICE_TEXTS.recordingError,
    });
    expect(fake.streams[0]!.stopped).toBe(true);

    await recorder.start();
    const mediaRecorder = fake.recorders[1]!;
    mediaRecorder.state = 'inactive'; // the browser stopped it by itself
    mediaRecorder.onstop?.();
    expect(recorder.getSnapshot().state).toBe('error');
    expect(notices()).toEqual([VOICE_NOTICE_TEXTS.recordingError, VOICE_NOTICE_TEXTS.recordingError]);
    expect(fake.streams[1]!.stopped).toBe(true);
  });

  it('an error while stopping resolves the stop with nothing', async () => {
    const { fake, recorder } = setup();
    await recorder.start();
    const stopping = recorder.stop();
    fake.recorders[0]!.fail();
    await settle();
    expect(await stopping).toBeUndefined();
    expect(recorder.getSnapshot().state).toBe('error');
  });

  it('cancel drops the recording and releases the microphone, also while the permission prompt is open', async () => {
    const { fake, recorder } = setup();
    await recorder.start();
    vi.advanceTimersByTime(500);
    const stopping = recorder.stop();
    recorder.cancel();
    expect(await stopping).toBeUndefined();
    expect(recorder.getSnapshot().state).toBe('stopped');
    expect(recorder.getSnapshot().recording).toBeUndefined();
    expect(fake.streams[0]!.stopped).toBe(true);

    const starting = recorder.start();
    expect(recorder.getSnapshot().pending).toBe('starting');
    recorder.cancel();
    await starting;
    expect(recorder.getSnapshot().state).toBe('stopped');
    expect(fake.streams[1]!.stopped).toBe(true);
    expect(fake.recorders).toHaveLength(1);
  });

  it('ignores pause, resume and stop where they do not apply', async () => {
    const { recorder, states } = setup();
    recorder.pause();
    recorder.resume();
    expect(await recorder.stop()).toBeUndefined();
    await recorder.start();
    recorder.resume(); // not paused
    recorder.pause();
    recorder.pause();
    expect(states()).toEqual(['stopped:starting', 'recording', 'paused']);
    const stopping = recorder.stop();
    expect(recorder.stop()).toBe(stopping); // one stop
    recorder.resume(); // stopping: no resume
    await settle();
    expect((await stopping)?.duration).toBe(0);
  });

  it('records mp4 (AAC) when webm is not supported', async () => {
    const { fake, recorder } = setup({ types: ['audio/mp4;codecs=mp4a.40.2'] });
    await recorder.start();
    expect(fake.recorders[0]!.mimeType).toBe('audio/mp4;codecs=mp4a.40.2');
    vi.advanceTimersByTime(1_500);
    const stopping = recorder.stop();
    await settle();
    const recording = await stopping;
    expect(recording).toMatchObject({ mime_type: 'audio/mp4', duration: 1.5 });
    expect(recording!.name).toMatch(/^voice-recording-.*\.mp4$/);
    expect(recording!.file.type).toBe('audio/mp4');
  });

  it('falls back to WAV at 16 kHz from the PCM of the audio graph, skipping paused blocks', async () => {
    const { fake, recorder } = setup({ types: [], sampleRate: 48_000 });
    await recorder.start();
    expect(fake.recorders).toHaveLength(0);
    expect(recorder.getSnapshot().mimeType).toBe('audio/wav');
    fake.feedPcm(new Float32Array(4_800).fill(0.5)); // 0.1 s at 48 kHz
    recorder.pause();
    fake.feedPcm(new Float32Array(4_800).fill(-1)); // paused: dropped
    recorder.resume();
    fake.feedPcm(new Float32Array(2_400).fill(-0.25));
    const recording = await recorder.stop();
    expect(recording!.mime_type).toBe('audio/wav');
    expect(recording!.name).toMatch(/\.wav$/);
    const bytes = new Uint8Array(await recording!.file.arrayBuffer());
    const view = new DataView(bytes.buffer);
    expect(String.fromCharCode(...bytes.slice(0, 4))).toBe('RIFF');
    expect(view.getUint32(24, true)).toBe(16_000);
    expect(view.getUint16(34, true)).toBe(16);
    const samples = (bytes.byteLength - 44) / 2;
    expect(samples).toBe(1_600 + 800);
    expect(view.getInt16(44, true)).toBe(16_384);
    expect(view.getInt16(44 + 2 * (samples - 1), true)).toBe(-8_192);
    expect(recording!.file_size).toBe(44 + samples * 2);
    expect(fake.contexts[0]!.closed).toBe(true);
  });

  it('reports every state of chat-spec §4 through the store', async () => {
    const { fake, recorder } = setup();
    const reached = new Set<RecordingState>([recorder.getSnapshot().state]);
    recorder.subscribe(() => reached.add(recorder.getSnapshot().state));
    await recorder.start();
    recorder.pause();
    fake.recorders[0]!.fail();
    expect([...reached].sort()).toEqual(['error', 'paused', 'recording', 'stopped']);
  });
});
