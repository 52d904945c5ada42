import { ATTACHMENT_CONSTANTS } from '@caseroom/protocol';
import { browserMediaEnvironment, type MediaEnvironment } from './media-environment.js';
import { concatPcm, encodeWav, resamplePcm } from './wav.js';

/** A recording format: the MIME type stored, what the MediaRecorder is asked for (none: WAV), the file's extension. */
export type VoiceFormat = { mimeType: string; recorderType?: string; extension: string };

/** webm when the recorder can, else mp4 with AAC, else the WAV fallback (chat-spec §9). */
export function chooseVoiceFormat(media: MediaEnvironment): VoiceFormat | undefined {
  const Recorder = media.MediaRecorder;
  if (!Recorder) return undefined;
  const supported = (type: string) => {
    try {
      return Recorder.isTypeSupported(type);
    } catch {
      return false;
    }
  };
  if (supported('audio/webm'))
    return { mimeType: 'audio/webm', recorderType: 'audio/webm', extension: 'webm' };
  for (const type of ['audio/mp4;codecs=mp4a.40.2', 'audio/mp4']) {
    if (supported(type)) return { mimeType: 'audio/mp4', recorderType: type, extension: 'mp4' };
  }
  return media.AudioContext ? { mimeType: 'audio/wav', extension: 'wav' } : undefined;
}

/** Whether this environment can record at all (the record button hides otherwise). */
export function canRecordVoice(media: MediaEnvironment = browserMediaEnvironment()): boolean {
  return Boolean(media.getUserMedia && chooseVoiceFormat(media));
}

/** The captured PCM blocks (at `sampleRate`) as a WAV file's bytes at 16000 Hz, 16-bit (chat-spec §9). */
export function wavOf(blocks: readonly Float32Array[], sampleRate: number): Uint8Array<ArrayBuffer> {
  const rate = ATTACHMENT_CONSTANTS.wavSampleRate;
  return encodeWav(resamplePcm(concatPcm(blocks), sampleRate, rate), rate);
}

/**
 * The recording's file: `voice-recording-<ISO time, ':' and '.' as '-'>.<extension>` of `format`'s type; a
 * `File` where the runtime has one, else a `Blob`.
 */
export function voiceFile(
  format: VoiceFormat,
  parts: BlobPart[],
  at: Date = new Date(),
): { file: Blob; name: string } {
  const name = `voice-recording-${at.toISOString().replace(/[:.]/g, '-')}.${format.extension}`;
  const file =
    typeof File === 'function'
      ? new File(parts, name, { type: format.mimeType })
      : new Blob(parts, { type: format.mimeType });
  return { file, name };
}
