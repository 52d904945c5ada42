import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { Attachment } from '@caseroom/protocol';
import { t } from '../../../i18n/t';
import { useChat } from '../../ChatContext';
import { formatDuration, formatPlaybackRate, nextPlaybackRate, seekByKey, waveformBars } from './format';
import { useFiles } from './useFiles';

/**
 * A voice message (chat-spec §2, §9): play/pause, a waveform of 40 bars from `waveform_data` that fills as it
 * plays and seeks on click or with the arrow keys (a slider), the playback rate 1.0 -> 1.5 -> 2.0 -> 1.0, and the
 * elapsed time and duration as mm:ss. A failed playback shows the error state and "Error playing audio" (§8).
 */
export function VoiceRecordingPlayer({ attachment }: { attachment: Attachment }) {
  const files = useFiles();
  const chat = useChat();
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [current, setCurrent] = useState(0);
  const [loadedDuration, setLoadedDuration] = useState<number | undefined>(undefined);
  const [rate, setRate] = useState(1);
  const [failed, setFailed] = useState(false);
  const bars = useMemo(() => waveformBars(attachment.waveform_data), [attachment.waveform_data]);
  const duration = attachment.duration || loadedDuration || 0;
  const progress = duration > 0 ? Math.min(1, current / duration) : 0;
  const src = files ? files.mediaUrl(attachment.asset_url) : attachment.asset_url;

  useEffect(() => {
    if (audio.current) audio.current.playbackRate = rate;
  }, [rate]);

  const fail = () => {
    setFailed(true);
    setPlaying(false);
    if (chat.status === 'ready') {
      chat.client.notifications.add({
        id: 'audio-error',
        text: t('chat.attachment.audioError'),
        type: 'error',
      });
    }
  };

  const toggle = async () => {
    const el = audio.current;
    if (!el) return;
    if (!el.paused) {
      el.pause();
      return;
    }
    setFailed(false);
    try {
      el.playbackRate = rate;
      await el.play();
    } catch (error) {
      // A pause() while play() was starting is not a failure.
      if (!(error instanceof DOMException && error.name === 'AbortError')) fail();
    }
  };

  const seek = (seconds: number) => {
    const el = audio.current;
    if (!el || duration <= 0) return;
    el.currentTime = seconds;
    setCurrent(seconds);
  };

  const onWaveClick = (event: MouseEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    if (rect.width <= 0) return;
    seek(Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width)) * duration);
  };

  const onWaveKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const to = seekByKey(event.key, current, duration);
    if (to === undefined) return;
    event.preventDefault();
    seek(to);
  };

  const played = Math.round(progress * bars.length);
  const positionText = t('chat.attachment.positionText', {
    elapsed: formatDuration(current),
    duration: formatDuration(duration),
  });
  return (
    <div
      className={`attachment-card voice-player${failed ? ' voice-player-error' : ''}`}
      data-state={failed ? 'error' : playing ? 'playing' : 'paused'}
      role="group"
      aria-label={t('chat.attachment.voice')}
    >
      <audio
        ref={audio}
        src={src}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => {
          setPlaying(false);
          setCurrent(0);
        }}
        onTimeUpdate={(event) => setCurrent(event.currentTarget.currentTime)}
        onLoadedMetadata={(event) => {
          const d = event.currentTarget.duration;
          if (Number.isFinite(d)) setLoadedDuration(d);
        }}
        onError={fail}
      />
      <button
        type="button"
        className="voice-play"
        aria-label={playing ? t('chat.attachment.pause') : t('chat.attachment.play')}
        onClick={() => void toggle()}
      >
        {playing ? <PauseIcon /> : <PlayIcon />}
      </button>
      <div
        className="voice-wave"
        role="slider"
        tabIndex={0}
        aria-label={t('chat.attachment.position')}
        aria-valuemin={0}
        aria-valuemax={Math.round(duration)}
        aria-valuenow={Math.round(current)}
        aria-valuetext={positionText}
        onClick={onWaveClick}
        onKeyDown={onWaveKey}
      >
        {bars.map((height, index) => (
          <span
            key={index}
            className={index < played ? 'voice-bar voice-bar-played' : 'voice-bar'}
            style={{ height: `${Math.round(height * 100)}%` }}
          />
        ))}
      </div>
      <span className="voice-time" aria-hidden="true">
        <span className="voice-time-full">
          {formatDuration(current)} / {formatDuration(duration)}
        </span>
        <span className="voice-time-short">
          {formatDuration(playing || current > 0 ? current : duration)}
        </span>
      </span>
      <button
        type="button"
        className="voice-rate"
        aria-label={t('chat.attachment.playbackRate', { rate: formatPlaybackRate(rate) })}
        onClick={() => setRate(nextPlaybackRate(rate))}
      >
        {formatPlaybackRate(rate)}
      </button>
      {failed ? (
        <span className="voice-error" role="alert">
          {t('chat.attachment.audioError')}
        </span>
      ) : null}
    </div>
  );
}

function PlayIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M7 4.5v15l13-7.5z" fill="currentColor" />
    </svg>
  );
}

function PauseIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M6 4h4v16H6zM14 4h4v16h-4z" fill="currentColor" />
    </svg>
  );
}
