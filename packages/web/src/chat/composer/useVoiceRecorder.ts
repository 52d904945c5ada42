import { useEffect, useState } from 'react';
import { VoiceRecorder as Recorder, type VoiceRecorderSnapshot } from '@caseroom/sdk';
import { useStore } from '../useStore';
import type { ComposerVoiceOptions } from './VoiceRecorder';

/** Whether the recorder takes the input's place: waiting for the microphone, recording, paused or failed. */
export const recorderOpen = (snapshot: VoiceRecorderSnapshot): boolean =>
  snapshot.state !== 'stopped' || snapshot.pending !== undefined;

/**
 * One SDK voice recorder per composer (inert until its button is pressed). When the composer goes or moves to
 * another conversation (`target` changes: the same component may serve the next channel), a recording in
 * progress is dropped and the microphone freed, so it can never land in the wrong chat.
 */
export function useVoiceRecorder(
  voice: ComposerVoiceOptions | undefined,
  target: unknown,
): { recorder: Recorder; open: boolean } {
  const media = voice?.media;
  const [recorder] = useState(() => new Recorder({ media }));
  useEffect(() => () => recorder.dispose(), [recorder, target]);
  const open = recorderOpen(useStore(recorder));
  return { recorder, open: Boolean(voice) && open };
}
