import { canRecordVoice, type VoiceRecorder as Recorder } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { MicIcon } from './voiceIcons';
import type { ComposerVoiceOptions } from './VoiceRecorder';

interface VoiceRecordButtonProps {
  recorder: Recorder;
  voice: ComposerVoiceOptions;
}

/**
 * The composer's microphone button (chat-spec §2): starts the recorder, which then takes the input's place.
 * Not shown without the channel's `upload-file` capability or where the browser cannot record (no
 * MediaRecorder or no microphone access outside a secure context).
 */
export function VoiceRecordButton({ recorder, voice }: VoiceRecordButtonProps) {
  if (!voice.canUpload || !canRecordVoice(voice.media)) return null;
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={t('chat.voice.record')}
      data-testid="voice-record"
      onClick={() => void recorder.start()}
    >
      <MicIcon />
    </button>
  );
}
