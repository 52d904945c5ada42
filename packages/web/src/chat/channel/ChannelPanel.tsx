import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ChatClient } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { channelTitle } from '../channelInfo';
import { recordingSender } from '../composer/sendRecording';
import { Composer } from '../composer/Composer';
import { useFileDrop } from '../composer/useFileDrop';
import { ChannelHeader } from '../header/ChannelHeader';
import { ChannelMenu } from '../header/ChannelMenu';
import { MessageList, UNREAD_KEY } from '../list/MessageList';
import type { ListDirection } from '../list/listDirection';
import { MessageListContext, type MessageListContextValue } from '../list/MessageListContext';
import { useFollowSend } from '../list/useFollowSend';
import { NotificationList } from '../notices/NotificationList';
import type { ChatMessage } from '../sdkTypes';
import { ChannelSearchButton } from '../search/ChannelSearchButton';
import { useJumpRequest } from '../search/useJumpRequest';
import { ThreadList } from '../threads/ThreadList';
import { ThreadPanel } from '../threads/ThreadPanel';
import { useStore } from '../useStore';
import { useChannelWatch, useMarkRead } from './useChannelWatch';
import '../chat.css';

export interface ChannelPanelProps {
  client: ChatClient;
  viewerId: string;
  type: string;
  id: string;
  /** Popup mode (product-spec §2): a close icon in the header. */
  onClose?: (() => void) | undefined;
  /** Narrow screens without popup: back to the channel list. */
  onBack?: (() => void) | undefined;
  /** The id for the title element (a popup names its dialog with it). */
  titleId?: string | undefined;
  /** The message list's direction (default newest at the bottom). */
  direction?: ListDirection | undefined;
}

/**
 * The messenger screen with an active channel (product-spec §2): header, message list, notices (app level) and
 * input; the thread panel or thread list beside the list on wide screens, over it on narrow ones. Memoized: it
 * follows its channel's stores itself, so the app shell's own updates (case plans, connection) pass it by.
 */
export const ChannelPanel = memo(function ChannelPanel({
  client,
  viewerId,
  type,
  id,
  onClose,
  onBack,
  ...props
}: ChannelPanelProps) {
  useTranslation(); // memoized: its texts follow a language change itself
  const { channel, state, watchError, notFound, lastReadAtOpen, unreadAtOpen, opening } = useChannelWatch(
    client,
    type,
    id,
    viewerId,
  );
  const me = useStore(client.me);
  const activeThread = useStore(client.threads.active);
  const threadList = useStore(client.threads.state);
  const [showThreads, setShowThreads] = useState(false);
  const [atBottom, setAtBottom] = useState(true);
  const [highlightedId, setHighlightedId] = useState<string | undefined>();
  const [jump, setJump] = useState<{ id: string; seq: number } | undefined>();
  const input = useRef<HTMLTextAreaElement>(null);
  // Files dropped anywhere on the channel become the composer's attachments (chat-spec §5).
  const drop = useFileDrop(channel.composer.attachments);
  const ownTitleId = useId();
  const titleId = props.titleId ?? ownTitleId;
  useMarkRead(channel, state, atBottom);
  const sends = useFollowSend(channel, state, viewerId);
  // The thread list feeds the header's unread-thread count; it is kept up by events after this load.
  useEffect(() => {
    client.threads.load().catch(() => undefined);
  }, [client]);
  const unreadThreads = threadList.threads.filter(
    (th) => th.channel === channel && th.state.getSnapshot().unreadCount > 0,
  ).length;

  const title = channelTitle(state.channel, state.members, viewerId, t('chat.channel.untitled'));
  useDocumentTitle(title);

  const openThread = useCallback(
    (message: ChatMessage) => {
      setShowThreads(false);
      client.threads.setActive(client.threads.thread(message, channel));
    },
    [client, channel],
  );
  const capabilities = state.channel?.own_capabilities;
  const context = useMemo<MessageListContextValue>(
    () => ({
      client,
      channel,
      viewerId,
      mode: 'main',
      capabilities: capabilities ?? [],
      composer: channel.composer,
      focusComposer: () => input.current?.focus(),
      openThread,
      retry: (message) => void channel.resendMessage(message).catch(() => undefined),
      jumpToMessage: (messageId) => {
        // From memory when held, else the page around it (chat-spec §4); the list then scrolls and highlights.
        void channel
          .jumpToMessage(messageId)
          .then(() => setJump((j) => ({ id: messageId, seq: (j?.seq ?? 0) + 1 })))
          .catch(() => undefined);
      },
      highlightedId,
    }),
    [client, channel, viewerId, capabilities, openThread, highlightedId],
  );

  // A search result across channels opens this channel with the message to jump to.
  useJumpRequest(Boolean(state.channel) && !state.loading, context.jumpToMessage);

  const error = state.error ?? watchError;
  const typing = Object.values(state.typing)
    .filter((entry) => !entry.parent_id && entry.user.id !== viewerId)
    .map((entry) => entry.user);
  const side = activeThread ? 'thread' : showThreads ? 'threads' : undefined;

  if (notFound && !state.channel) return <ChannelNotFound titleId={titleId} onClose={onClose} />;

  return (
    <section className="channel" aria-labelledby={titleId} data-side={side}>
      {state.channel ? (
        <ChannelHeader
          channel={state.channel}
          members={state.members}
          viewerId={viewerId}
          viewer={me}
          title={title}
          titleId={titleId}
          onClose={onClose}
          onBack={onBack}
          threadsOpen={side !== undefined}
          unreadThreads={unreadThreads}
          menu={
            <>
              {capabilities?.includes('search-messages') && state.cid ? (
                <ChannelSearchButton
                  client={client}
                  viewerId={viewerId}
                  cid={state.cid}
                  name={title}
                  onJump={context.jumpToMessage}
                />
              ) : null}
              <ChannelMenu client={client} channel={state.channel} />
            </>
          }
          onToggleThreads={() => {
            if (side) {
              client.threads.setActive(undefined);
              setShowThreads(false);
            } else setShowThreads(true);
          }}
        />
      ) : (
        <header className="channel-header">
          <h2 id={titleId} className="channel-title">
            {error ? t('chat.channel.error') : t('chat.channel.loading')}
          </h2>
        </header>
      )}
      <div className="channel-body">
        <div className="channel-main" {...drop.handlers}>
          {drop.overlay}
          {error && state.messages.length === 0 ? (
            <div className="panel-message" role="alert">
              <p>{t('chat.channel.error')}</p>
              <p className="muted">{error}</p>
            </div>
          ) : (
            <MessageListContext.Provider value={context}>
              <MessageList
                // Mounted once the opening position is known: react-virtuoso takes it only at mount.
                key={state.channel && !opening ? 'ready' : 'loading'}
                mode="main"
                messages={opening ? [] : state.messages}
                viewerId={viewerId}
                loading={state.loading || !state.channel || opening}
                hasPrev={state.hasPrev}
                hasNext={state.hasNext}
                loadingTop={state.loadState === 'loading-top'}
                loadingBottom={state.loadState === 'loading-bottom'}
                onLoadPrev={() => void channel.loadPrev().catch(() => undefined)}
                onLoadNext={() => void channel.loadNext().catch(() => undefined)}
                onJumpToLatest={() => channel.jumpToLatest().catch(() => undefined)}
                lastReadMessageId={lastReadAtOpen}
                unreadCount={unreadAtOpen}
                onJumpToUnread={() => {
                  // The page around the last read message when the list moved away from it (chat-spec §4).
                  if (!lastReadAtOpen) return;
                  void channel
                    .jumpToMessage(lastReadAtOpen)
                    .then(() => setJump((j) => ({ id: UNREAD_KEY, seq: (j?.seq ?? 0) + 1 })))
                    .catch(() => undefined);
                }}
                scrollToEnd={sends}
                read={state.read}
                typing={typing}
                onAtBottomChange={setAtBottom}
                onHighlight={setHighlightedId}
                jump={jump}
                direction={props.direction}
              />
            </MessageListContext.Provider>
          )}
          <NotificationList client={client} className="notices-channel" />
          {state.channel ? (
            <Composer
              composer={channel.composer}
              mode="main"
              inputRef={input}
              autoFocus={!onClose && wideScreen()}
              voice={{
                canUpload: capabilities?.includes('upload-file') ?? false,
                onRecorded: recordingSender(channel.composer),
              }}
            />
          ) : null}
        </div>
        {activeThread ? (
          <ThreadPanel
            client={client}
            thread={activeThread}
            viewerId={viewerId}
            onClose={() => client.threads.setActive(undefined)}
          />
        ) : showThreads ? (
          <ThreadList
            client={client}
            channel={channel}
            onOpen={openThread}
            onClose={() => setShowThreads(false)}
          />
        ) : null}
      </div>
    </section>
  );
});

/**
 * A channel that is not there for the viewer (it does not exist, or they are not a member): opening it created
 * nothing. Offers the way back to the chat list (or closes the popup).
 */
function ChannelNotFound({ titleId, onClose }: { titleId: string; onClose?: (() => void) | undefined }) {
  return (
    <section className="channel" aria-labelledby={titleId}>
      <div className="panel-message" role="alert">
        <h2 id={titleId} className="channel-title">
          {t('chat.channel.notFound')}
        </h2>
        <p className="muted">{t('chat.channel.notFoundHint')}</p>
        {onClose ? (
          <button type="button" className="button" onClick={onClose}>
            {t('chat.channel.backToChats')}
          </button>
        ) : (
          <Link className="button" to="/app">
            {t('chat.channel.backToChats')}
          </Link>
        )}
      </div>
    </section>
  );
}

function wideScreen(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 721px)').matches;
}
