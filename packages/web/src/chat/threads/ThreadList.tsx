import { useEffect, useId, useMemo } from 'react';
import type { ChatClient } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { CloseIcon } from '../../ui/icons';
import { LayerScope } from '../../ui/layers';
import type { ChannelHandle, ChatMessage, ThreadHandle } from '../sdkTypes';
import { useStore } from '../useStore';
import { usePanelLayer } from './usePanelLayer';

interface ThreadListProps {
  client: ChatClient;
  channel: ChannelHandle;
  onOpen: (parent: ChatMessage) => void;
  onClose: () => void;
}

/**
 * The threads of this channel with unread badges (chat-spec §2), from the SDK's thread list
 * (`client.threads`, `POST /chat/threads`), reloaded when the panel opens; "Load more" pages on.
 */
export function ThreadList({ client, channel, onOpen, onClose }: ThreadListProps) {
  const titleId = useId();
  const layer = usePanelLayer(onClose);
  const listState = useStore(client.threads.state);
  useEffect(() => {
    client.threads.load().catch(() => undefined);
  }, [client]);

  const threads: ThreadHandle[] = useMemo(
    () => listState.threads.filter((th) => th.channel === channel),
    [listState.threads, channel],
  );

  return (
    <LayerScope layer={layer}>
      <aside className="side-panel thread-list" aria-labelledby={titleId}>
        <header className="side-panel-header">
          <h2 id={titleId} className="side-panel-title">
            {t('chat.threads.title')}
          </h2>
          <button
            type="button"
            className="icon-button"
            aria-label={t('chat.threads.close')}
            onClick={onClose}
          >
            <CloseIcon />
          </button>
        </header>
        {listState.status === 'loading' && threads.length === 0 ? (
          <p className="panel-message muted" role="status">
            {t('app.loading')}
          </p>
        ) : listState.status === 'error' ? (
          <p className="panel-message inline-error" role="alert">
            {t('chat.threads.error')}
          </p>
        ) : threads.length === 0 ? (
          <p className="panel-message muted">{t('chat.threads.empty')}</p>
        ) : (
          <ul className="thread-items">
            {threads.map((thread) => (
              <ThreadRow key={thread.id} thread={thread} onOpen={onOpen} />
            ))}
          </ul>
        )}
        {listState.hasNext ? (
          <button
            type="button"
            className="button button-small thread-more"
            disabled={listState.status === 'loading'}
            onClick={() => void client.threads.loadMore().catch(() => undefined)}
          >
            {t('chat.threads.more')}
          </button>
        ) : null}
      </aside>
    </LayerScope>
  );
}

function ThreadRow({ thread, onOpen }: { thread: ThreadHandle; onOpen: (parent: ChatMessage) => void }) {
  const state = useStore(thread.state);
  const parent = state.parentMessage;
  if (!parent) return null;
  const sender = parent.user?.name ?? parent.user_id ?? '';
  return (
    <li>
      <button type="button" className="thread-item" onClick={() => onOpen(parent)}>
        <span className="thread-item-sender">{sender}</span>
        <span className="thread-item-text">{parent.text}</span>
        <span className="muted thread-item-count">
          {parent.reply_count === 1
            ? t('chat.thread.oneReply')
            : t('chat.thread.replies', { count: parent.reply_count })}
        </span>
        {state.unreadCount > 0 ? (
          <span className="badge" aria-label={t('chat.channels.unread', { count: state.unreadCount })}>
            {state.unreadCount}
          </span>
        ) : null}
      </button>
    </li>
  );
}
