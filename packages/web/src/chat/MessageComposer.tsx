import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { t } from '../i18n/t';
import type { ChannelHandle } from './sdkTypes';

interface MessageComposerProps {
  channel: ChannelHandle;
  /** False when the viewer lacks the `send-message` capability. */
  canSend: boolean;
}

/**
 * Text input of a channel: Enter sends (unless composing with an IME), Shift+Enter adds a line. The SDK echoes the
 * message at once with status `sending`; a failure shows on the message, so the composer clears right away.
 */
export function MessageComposer({ channel, canSend }: MessageComposerProps) {
  const [text, setText] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const inputId = useId();
  const hintId = useId();

  // Opening a channel on a wide screen puts the cursor in its composer (on phones it would pop the keyboard).
  useEffect(() => {
    if (window.matchMedia('(min-width: 721px)').matches) input.current?.focus();
  }, []);

  if (!canSend) {
    return (
      <p className="composer-disabled" role="note">
        {t('chat.composer.cannotSend')}
      </p>
    );
  }

  function send() {
    const value = text.trim();
    if (!value) return;
    setText('');
    channel.sendMessage({ text: value }).catch(() => undefined); // shown as 'failed' on the message
    input.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== 'Enter' || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send();
  }

  return (
    <form className="composer" onSubmit={onSubmit}>
      <label htmlFor={inputId} className="visually-hidden">
        {t('chat.composer.label')}
      </label>
      <textarea
        id={inputId}
        ref={input}
        className="composer-input"
        rows={1}
        value={text}
        placeholder={t('chat.composer.placeholder')}
        aria-describedby={hintId}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value) channel.keystroke();
        }}
        onKeyDown={onKeyDown}
      />
      <span id={hintId} className="visually-hidden">
        {t('chat.composer.hint')}
      </span>
      <button type="submit" className="button button-primary" disabled={!text.trim()}>
        {t('chat.composer.send')}
      </button>
    </form>
  );
}
