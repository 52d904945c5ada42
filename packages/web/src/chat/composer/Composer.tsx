import { lazy, Suspense, useEffect, useId, useState, type KeyboardEvent, type RefObject } from 'react';
import { t } from '../../i18n/t';
import { CloseIcon, SendIcon, SmileIcon } from '../../ui/icons';
import { useLayer } from '../../ui/layers';
import { QuotedMessage } from '../message/QuotedMessage';
import type { ComposerHandle } from '../sdkTypes';
import { useStore } from '../useStore';
import { LinkPreviews } from './LinkPreview';
import { AttachButton, pasteFiles } from './AttachButton';
import { AttachmentPreviews } from './AttachmentPreviews';
import { SuggestionList } from './SuggestionList';
import { useFileDrop } from './useFileDrop';
import { useVoiceRecorder } from './useVoiceRecorder';
import { VoiceRecordButton } from './VoiceRecordButton';
import { VoiceRecorder, type ComposerVoiceOptions } from './VoiceRecorder';

const EmojiPicker = lazy(() => import('./EmojiPicker'));

interface ComposerProps {
  composer: ComposerHandle;
  mode: 'main' | 'thread';
  inputRef: RefObject<HTMLTextAreaElement | null>;
  /** Put the cursor here when mounted (wide screens). */
  autoFocus?: boolean;
  /** Voice messages (record button and recorder); none when absent. */
  voice?: ComposerVoiceOptions;
}

/**
 * The message input (chat-spec §2, §5) on the SDK's composer store: Enter sends unless composing (IME) or with
 * Shift; the quoted-message preview; edit mode; `@` mentions and `/` commands with a dropdown; the emoji picker
 * (loaded on first use); the send button disabled by the SDK's block reason; the slow-mode countdown; and the
 * "You can't send …" text instead of the input when the capability is missing.
 */
export function Composer({ composer, mode, inputRef, autoFocus, voice }: ComposerProps) {
  const state = useStore(composer.state);
  const recorder = useVoiceRecorder(voice, composer);
  const [active, setActive] = useState(0);
  const [emoji, setEmoji] = useState(false);
  const [emojiButton, setEmojiButton] = useState<HTMLButtonElement | null>(null);
  const inputId = useId();
  const hintId = useId();
  const listId = useId();
  const suggestions = state.suggestions;
  const open = Boolean(suggestions && (suggestions.items.length > 0 || suggestions.loading));
  const drop = useFileDrop(composer.attachments);
  // The dropdown is a layer of the page's stack: Escape closes it, not the chat popup around the composer.
  useLayer(open, { onDismiss: () => composer.closeSuggestions() });

  useEffect(() => setActive(0), [suggestions?.query, suggestions?.trigger]);
  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus, inputRef]);

  if (state.disabledText) {
    return (
      <p className="composer-disabled" role="note">
        {mode === 'main' ? t('chat.composer.cannotSend') : t('chat.composer.cannotSendReply')}
      </p>
    );
  }

  const cooldown = state.cooldownRemaining > 0 && !state.editing;
  const send = () => {
    void composer.send().then(() => inputRef.current?.focus());
  };

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (open && suggestions) {
      const count = suggestions.items.length;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        if (count) setActive((i) => (i + (event.key === 'ArrowDown' ? 1 : -1) + count) % count);
        return;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && count > 0) {
        event.preventDefault();
        const item = suggestions.items[Math.min(active, count - 1)];
        if (item) composer.select(item);
        return;
      }
      if (event.key === 'Escape') return; // the layer stack closes the dropdown (above)
    }
    if (event.key === 'Escape' && state.editing) {
      event.preventDefault();
      composer.cancelEditing();
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.nativeEvent.isComposing || event.keyCode === 229) return; // an IME is composing
    event.preventDefault();
    send();
  }

  const insertEmoji = (native: string) => {
    const el = inputRef.current;
    const at = el?.selectionStart ?? state.text.length;
    const text = `${state.text.slice(0, at)}${native}${state.text.slice(at)}`;
    composer.setText(text, at + native.length);
    setEmoji(false);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + native.length, at + native.length);
    });
  };

  const placeholder = cooldown
    ? t('chat.composer.cooldownPlaceholder', { seconds: state.cooldownRemaining })
    : mode === 'thread'
      ? t('chat.composer.replyPlaceholder')
      : t('chat.composer.placeholder');

  return (
    <form
      className="composer"
      data-mode={mode}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      {...drop.handlers}
    >
      {drop.overlay}
      {state.editing ? (
        <div className="composer-context">
          <span className="composer-context-label">{t('chat.composer.editing')}</span>
          <button
            type="button"
            className="icon-button icon-button-small"
            aria-label={t('chat.composer.cancelEdit')}
            onClick={() => composer.cancelEditing()}
          >
            <CloseIcon />
          </button>
        </div>
      ) : state.quoted ? (
        <div className="composer-context">
          <span className="visually-hidden">{t('chat.composer.quoting')}</span>
          <QuotedMessage message={state.quoted} />
          <button
            type="button"
            className="icon-button icon-button-small"
            aria-label={t('chat.composer.cancelQuote')}
            onClick={() => composer.setQuoted(undefined)}
          >
            <CloseIcon />
          </button>
        </div>
      ) : null}
      {open && suggestions ? (
        <SuggestionList
          id={listId}
          suggestions={suggestions}
          active={active}
          onHover={setActive}
          onPick={(item) => {
            composer.select(item);
            inputRef.current?.focus();
          }}
        />
      ) : null}
      {state.editing ? null : <LinkPreviews composer={composer} />}
      <AttachmentPreviews attachments={composer.attachments} />
      {voice && recorder.open ? (
        <VoiceRecorder
          recorder={recorder.recorder}
          voice={voice}
          onClose={() => requestAnimationFrame(() => inputRef.current?.focus())}
        />
      ) : null}
      <div className="composer-row" hidden={recorder.open}>
        <AttachButton attachments={composer.attachments} />
        <label htmlFor={inputId} className="visually-hidden">
          {mode === 'main' ? t('chat.composer.label') : t('chat.composer.replyLabel')}
        </label>
        <textarea
          id={inputId}
          ref={inputRef}
          className="composer-input"
          rows={1}
          value={state.text}
          placeholder={placeholder}
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open && suggestions?.items.length ? `${listId}-${active}` : undefined}
          aria-describedby={hintId}
          onChange={(e) => composer.setText(e.target.value, e.target.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={(event) => pasteFiles(composer.attachments, event)}
        />
        <span id={hintId} className="visually-hidden">
          {t('chat.composer.hint')}
        </span>
        <div className="composer-tools">
          <button
            ref={setEmojiButton}
            type="button"
            className="icon-button"
            aria-label={t('chat.composer.emoji')}
            aria-expanded={emoji}
            onClick={() => setEmoji((e) => !e)}
          >
            <SmileIcon />
          </button>
          {voice && !state.editing ? <VoiceRecordButton recorder={recorder.recorder} voice={voice} /> : null}
          {emoji ? (
            <Suspense fallback={<div className="popover emoji-popover muted">{t('app.loading')}</div>}>
              <EmojiPicker onPick={insertEmoji} onClose={() => setEmoji(false)} anchor={emojiButton} />
            </Suspense>
          ) : null}
        </div>
        {cooldown ? (
          <span
            className="cooldown"
            role="timer"
            aria-label={t('chat.composer.cooldown', { seconds: state.cooldownRemaining })}
          >
            {state.cooldownRemaining}
          </span>
        ) : (
          <button
            type="submit"
            className="button button-primary composer-send"
            disabled={state.blockReason !== undefined}
            aria-label={state.editing ? t('chat.composer.save') : t('chat.composer.send')}
          >
            <SendIcon />
          </button>
        )}
      </div>
    </form>
  );
}
