import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Message } from '@caseroom/protocol';
import { messageSearchSource, SearchController, type ChatClient } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { Modal } from '../../ui/Modal';
import { useStore } from '../useStore';
import { SearchResultItem } from './SearchResultItem';
import './search.css';

/** Where to search: one channel, or every channel of the viewer. */
export type SearchScope = { kind: 'channel'; cid: string; name: string } | { kind: 'all' };

interface MessageSearchDialogProps {
  client: ChatClient;
  viewerId: string;
  scope: SearchScope;
  onClose: () => void;
  /** A result was chosen: open its channel and jump to it. */
  onPick: (message: Message) => void;
}

/** Shorter queries are not sent (chat-spec §5 ignores single-character terms). */
const MIN_QUERY = 2;

/**
 * Message search (chat-spec §7 `GET /search` through the SDK's SearchController: 300 ms debounce, pages of 10):
 * within one channel or across the viewer's channels. Results show channel, sender, time and the matching words
 * highlighted in their context; arrow keys move from the field through the results, Enter opens one.
 */
export function MessageSearchDialog({ client, viewerId, scope, onClose, onPick }: MessageSearchDialogProps) {
  // One controller for the dialog's life: keyed on the scope's values, not on the (re-created) scope object, so a
  // re-render of the opener keeps the results.
  const cid = scope.kind === 'channel' ? scope.cid : undefined;
  const controller = useMemo(
    () =>
      new SearchController([messageSearchSource(client, cid ? { cid } : { members: { $in: [viewerId] } })]),
    [client, cid, viewerId],
  );
  useEffect(() => () => controller.dispose(), [controller]);
  const snapshot = useStore(controller.state);
  const [text, setText] = useState('');
  const inputId = useId();
  const hintId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const source = snapshot.sources['messages'];
  const results = (source?.items ?? []) as Message[];
  const searched = text.trim().length >= MIN_QUERY;

  const change = (value: string) => {
    setText(value);
    controller.search(value.trim().length >= MIN_QUERY ? value : '');
  };

  const resultButtons = () => [
    ...(listRef.current?.querySelectorAll<HTMLButtonElement>('button.search-result') ?? []),
  ];
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const buttons = resultButtons();
    if (buttons.length === 0) return;
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    let next: number | undefined;
    if (event.key === 'ArrowDown') next = at < 0 ? 0 : Math.min(at + 1, buttons.length - 1);
    else if (event.key === 'ArrowUp') next = at <= 0 ? -1 : at - 1;
    else if (event.key === 'Home' && at >= 0) next = 0;
    else if (event.key === 'End' && at >= 0) next = buttons.length - 1;
    if (next === undefined) return;
    event.preventDefault();
    if (next < 0) input.current?.focus();
    else buttons[next]?.focus();
  };

  const title =
    scope.kind === 'channel'
      ? t('chat.search.titleChannel', { name: scope.name })
      : t('chat.search.titleAll');
  return (
    <Modal title={title} onClose={onClose} className="modal-search">
      <div className="message-search" onKeyDown={onKeyDown}>
        <label htmlFor={inputId} className="field-label">
          {t('chat.search.label')}
        </label>
        <input
          id={inputId}
          ref={input}
          type="search"
          autoFocus
          autoComplete="off"
          value={text}
          placeholder={t('chat.search.placeholder')}
          aria-describedby={hintId}
          onChange={(e) => change(e.target.value)}
        />
        <p id={hintId} className="muted search-hint">
          {t('chat.search.hint')}
        </p>
        <p className="search-status muted" role="status">
          {!searched
            ? ''
            : source?.isLoading && results.length === 0
              ? t('chat.search.searching')
              : !source?.error && results.length === 0 && !source?.isLoading
                ? t('chat.search.none', { query: text.trim() })
                : results.length > 0
                  ? t('chat.search.count', { count: results.length })
                  : ''}
        </p>
        {source?.error && searched ? (
          <p className="inline-error" role="alert">
            {t('chat.search.error', { message: source.error })}
          </p>
        ) : null}
        {results.length > 0 && searched ? (
          <ul className="search-results" ref={listRef} aria-label={t('chat.search.results')}>
            {results.map((message) => (
              <li key={message.id}>
                <SearchResultItem
                  client={client}
                  viewerId={viewerId}
                  message={message}
                  query={text}
                  showChannel={scope.kind === 'all'}
                  onPick={() => onPick(message)}
                />
              </li>
            ))}
          </ul>
        ) : null}
        {source?.hasNext && searched ? (
          <button
            type="button"
            className="button button-small search-more"
            disabled={source.isLoading}
            onClick={() => void controller.loadMore('messages')}
          >
            {source.isLoading ? t('chat.search.searching') : t('chat.search.more')}
          </button>
        ) : null}
      </div>
    </Modal>
  );
}
