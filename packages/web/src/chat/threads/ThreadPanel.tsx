import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ChatClient } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { CloseIcon } from '../../ui/icons';
import { LayerScope } from '../../ui/layers';
import { recordingSender } from '../composer/sendRecording';
import { Composer } from '../composer/Composer';
import { MessageList } from '../list/MessageList';
import { MessageListContext, type MessageListContextValue } from '../list/MessageListContext';
import type { ThreadHandle } from '../sdkTypes';
import { useStore } from '../useStore';
import { usePanelLayer } from './usePanelLayer';

interface ThreadPanelProps {
  client: ChatClient;
  thread: ThreadHandle;
  viewerId: string;
  onClose: () => void;
}

/** A thread (chat-spec §2 thread mode): the parent message, its replies and a reply composer. */
export function ThreadPanel({ client, thread, viewerId, onClose }: ThreadPanelProps) {
  const state = useStore(thread.state);
  const channelState = useStore(thread.channel.state);
  const [highlightedId, setHighlightedId] = useState<string | undefined>();
  const [jump, setJump] = useState<{ id: string; seq: number } | undefined>();
  const input = useRef<HTMLTextAreaElement>(null);
  const titleId = useId();
  const layer = usePanelLayer(onClose);
  const capabilities = channelState.channel?.own_capabilities;
  const context = useMemo<MessageListContextValue>(
    () => ({
      client,
      channel: thread.channel,
      viewerId,
      mode: 'thread',
      capabilities: capabilities ?? [],
      composer: thread.composer,
      focusComposer: () => input.current?.focus(),
      openThread: () => undefined,
      retry: (message) => void thread.resendReply(message).catch(() => undefined),
      // A quote in a thread quotes one of its replies (or the parent), which the panel holds.
      jumpToMessage: (messageId) => setJump((j) => ({ id: messageId, seq: (j?.seq ?? 0) + 1 })),
      highlightedId,
    }),
    [client, thread, viewerId, capabilities, highlightedId],
  );
  const messages = useMemo(
    () => (state.parentMessage ? [state.parentMessage, ...state.replies] : state.replies),
    [state.parentMessage, state.replies],
  );
  const typing = Object.values(channelState.typing)
    .filter((entry) => entry.parent_id === thread.id && entry.user.id !== viewerId)
    .map((entry) => entry.user);
  const replies = state.parentMessage?.reply_count ?? state.replies.length;
  // Replies read on screen are read: mark the thread read when it shows new ones (the SDK throttles to 1/s).
  const newest = state.replies.at(-1)?.id;
  useEffect(() => {
    if (document.visibilityState !== 'hidden') thread.markRead();
  }, [thread, newest]);

  return (
    <LayerScope layer={layer}>
      <aside className="side-panel thread-panel" aria-labelledby={titleId}>
        <header className="side-panel-header">
          <div>
            <h2 id={titleId} className="side-panel-title">
              {t('chat.thread.title')}
            </h2>
            <p className="muted side-panel-subtitle">
              {replies === 1 ? t('chat.thread.oneReply') : t('chat.thread.replies', { count: replies })}
            </p>
          </div>
          <button type="button" className="icon-button" aria-label={t('chat.thread.close')} onClick={onClose}>
            <CloseIcon />
          </button>
        </header>
        <MessageListContext.Provider value={context}>
          <MessageList
            key={thread.id}
            mode="thread"
            messages={messages}
            viewerId={viewerId}
            loading={state.loading && state.replies.length === 0}
            hasPrev={state.hasPrev}
            hasNext={false}
            loadingTop={state.loading && state.replies.length > 0}
            loadingBottom={false}
            onLoadPrev={() => void thread.loadPrev().catch(() => undefined)}
            onLoadNext={() => undefined}
            onJumpToLatest={async () => undefined}
            unreadCount={0}
            read={{}}
            typing={typing}
            onHighlight={setHighlightedId}
            jump={jump}
          />
        </MessageListContext.Provider>
        <Composer
          composer={thread.composer}
          mode="thread"
          inputRef={input}
          autoFocus
          voice={{
            canUpload: capabilities?.includes('upload-file') ?? false,
            onRecorded: recordingSender(thread.composer),
          }}
        />
      </aside>
    </LayerScope>
  );
}
