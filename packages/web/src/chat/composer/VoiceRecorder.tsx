import { useEffect, useRef, type KeyboardEvent } from 'react';
import {
  formatVoiceDuration,
  VOICE_NOTICE_TEXTS,
  VOICE_RECORDER_DEFAULTS,
  type MediaEnvironment,
  type VoiceRecorder as Recorder,
  type VoiceRecording,
} from '@caseroom/sdk';
import { t, type MessageKey } from '../../i18n/t';
import { CloseIcon, SendIcon } from '../../ui/icons';
import { useStore } from '../useStore';
import { MicIcon, PauseIcon, ResumeIcon, StopIcon, TrashIcon } from './voiceIcons';
import './voice.css';

/** What the composer needs to offer voice messages. */
export interface ComposerVoiceOptions {
  /** The channel's `upload-file` capability: without it there is no record button. */
  canUpload: boolean;
  /** chat-spec §9 composer default: true (send as soon as the recording stops). */
  sendImmediately?: boolean;
  /**
   * A finished recording (`file`, `mime_type`, `duration`, `waveform_data`): upload it as a `voiceRecording`
   * attachment, and send the message when `send` is true.
   */
  onRecorded(recording: VoiceRecording, options: { send: boolean }): void | Promise<void>;
  /** The browser media APIs (tests); default the page's own. */
  media?: MediaEnvironment;
}

const ERROR_KEYS: Record<string, MessageKey> = {
  [VOICE_NOTICE_TEXTS.permissionDenied]: 'chat.voice.permissionDenied',
  [VOICE_NOTICE_TEXTS.startError]: 'chat.voice.startError',
  [VOICE_NOTICE_TEXTS.recordingError]: 'chat.voice.recordingError',
  [VOICE_NOTICE_TEXTS.notSupported]: 'chat.voice.notSupported',
};

interface VoiceRecorderProps {
  recorder: Recorder;
  voice: ComposerVoiceOptions;
  /** The recorder closed (sent, deleted, dismissed): the composer takes the focus back. */
  onClose(): void;
}

/**
 * The recorder in the input's place (chat-spec §4 Recording; product-spec §5: start, show the recorder, hand the
 * recording over when ready, optionally send at once, then hide): 40 live bars, the mm:ss timer without paused
 * time, pause/resume, stop (or send), delete, and the failure with its §8 text and a retry. Escape deletes.
 */
export function VoiceRecorder({ recorder, voice, onClose }: VoiceRecorderProps) {
  const snapshot = useStore(recorder);
  const primary = useRef<HTMLButtonElement>(null);
  const retry = useRef<HTMLButtonElement>(null);
  const send = voice.sendImmediately ?? VOICE_RECORDER_DEFAULTS.sendImmediately;
  const { state, pending } = snapshot;
  const live = state === 'recording' || state === 'paused';

  // Keyboard users land on the main action once recording runs, and on "Try again" after a failure.
  useEffect(() => {
    if (state === 'recording' && !pending) primary.current?.focus();
    if (state === 'error' && !pending) retry.current?.focus();
  }, [state, pending]);

  const close = () => {
    recorder.cancel();
    onClose();
  };
  const finish = async () => {
    const recording = await recorder.stop();
    if (recording) void Promise.resolve(voice.onRecorded(recording, { send })).catch(() => undefined);
    onClose();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    close();
  };

  if (state === 'error' && !pending) {
    const text = snapshot.error ?? VOICE_NOTICE_TEXTS.recordingError;
    const key = ERROR_KEYS[text];
    return (
      <div
        className="voice-recorder voice-recorder-error"
        role="group"
        aria-label={t('chat.voice.recorder')}
        data-state={state}
        onKeyDown={onKeyDown}
      >
        <p className="voice-recorder-message" role="alert">
          {key ? t(key) : text}
        </p>
        <button ref={retry} type="button" className="button" onClick={() => void recorder.start()}>
          <MicIcon />
          <span>{t('chat.voice.retry')}</span>
        </button>
        <button type="button" className="icon-button" aria-label={t('chat.voice.close')} onClick={close}>
          <CloseIcon />
        </button>
      </div>
    );
  }

  const time = formatVoiceDuration(snapshot.seconds);
  return (
    <div
      className="voice-recorder"
      role="group"
      aria-label={t('chat.voice.recorder')}
      data-state={state}
      data-pending={pending}
      onKeyDown={onKeyDown}
    >
      <button
        type="button"
        className="icon-button"
        aria-label={t('chat.voice.delete')}
        onClick={close}
        disabled={pending === 'stopping'}
      >
        <TrashIcon />
      </button>
      {live ? (
        <>
          <span
            className={`voice-recorder-dot${state === 'paused' ? ' is-paused' : ''}`}
            aria-hidden="true"
          />
          <span className="voice-recorder-time" role="timer" aria-label={t('chat.voice.elapsed', { time })}>
            {time}
          </span>
          <span className="visually-hidden" role="status">
            {state === 'paused' ? t('chat.voice.paused') : t('chat.voice.recording')}
          </span>
          <div className="voice-bars" aria-hidden="true" data-testid="voice-bars">
            {snapshot.bars.map((value, i) => (
              <span
                key={i}
                className="voice-bar"
                style={{ height: `${Math.max(8, Math.round(value * 100))}%` }}
              />
            ))}
          </div>
          <button
            type="button"
            className="icon-button"
            aria-label={state === 'paused' ? t('chat.voice.resume') : t('chat.voice.pause')}
            onClick={() => (state === 'paused' ? recorder.resume() : recorder.pause())}
            disabled={pending === 'stopping'}
          >
            {state === 'paused' ? <ResumeIcon /> : <PauseIcon />}
          </button>
          <button
            ref={primary}
            type="button"
            className="button button-primary voice-recorder-finish"
            aria-label={send ? t('chat.voice.send') : t('chat.voice.stop')}
            onClick={() => void finish()}
            disabled={pending === 'stopping'}
          >
            {send ? <SendIcon /> : <StopIcon />}
          </button>
        </>
      ) : (
        <p className="voice-recorder-message muted" role="status">
          {t('chat.voice.starting')}
        </p>
      )}
    </div>
  );
}
