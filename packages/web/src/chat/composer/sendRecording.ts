import type { MessageComposer, VoiceRecording } from '@caseroom/sdk';

/**
 * What the composer does with a finished voice recording (product-spec §5: upload it when ready, optionally send at
 * once): it becomes a `voiceRecording` attachment (duration, waveform_data) uploaded by the attachment manager, and
 * with `send` (the default, chat-spec §9) the composition is sent as soon as the upload finished. A failed upload
 * stays in the composer's previews with Retry, like any attachment.
 */
export function recordingSender(composer: MessageComposer) {
  return async (recording: VoiceRecording, { send }: { send: boolean }): Promise<void> => {
    const uploaded = await composer.attachments.addVoiceRecording(recording.file, {
      duration: recording.duration,
      waveform_data: recording.waveform_data,
      name: recording.name,
    });
    if (send && uploaded.localMetadata.uploadState === 'finished') await composer.send();
  };
}
