import type { VoiceRecording } from '@caseroom/sdk';

/** The window event a finished recording is announced with, until the attachment manager takes it. */
export const VOICE_RECORDED_EVENT = 'caseroom:voice-recorded';

/**
 * Temporary glue (issue 14): the composer's attachment manager is built beside the recorder; until it is merged a
 * finished recording is announced on `window` (the e2e test reads it there). The lead replaces this with the
 * upload as a `voiceRecording` attachment (duration, waveform_data) and, when `send`, the send.
 */
export function announceRecording(recording: VoiceRecording, options: { send: boolean }): void {
  window.dispatchEvent(new CustomEvent(VOICE_RECORDED_EVENT, { detail: { recording, ...options } }));
}
