import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { ChatClient } from '@caseroom/sdk';
import { t } from '../i18n/t';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { channelTitle, memberName, otherMembers } from './channelInfo';
import { useChat } from './ChatContext';
import { MessageComposer } from './MessageComposer';
import { MessageList } from './MessageList';
import type { ChatMessage } from './sdkTypes';
import { useStore } from './useStore';

/** Route `/app/chat/:channelType/:channelId`: one channel, watched live, with its composer. */
export function ChannelRoute() {
  const { channelType = 'messaging', channelId = '' } = useParams();
  const chat = useChat();
  if (chat.status !== 'ready') {
    return (
      <p className="panel-message muted" role="status">
        {t('chat.connecting')}
      </p>
    );
  }
  return (
    <ChannelView
      key={`${channelType}:${channelId}`}
      client={chat.client}
      viewerId={chat.userId}
      type={channelType}
      id={channelId}
    />
  );
}

interface ChannelViewProps {
  client: ChatClient;
  viewerId: string;
  type: string;
  id: string;
}

export function ChannelView({ client, viewerId, type, id }: ChannelViewProps) {
  const channel = useMemo(() => client.channel(type, id), [client, type, id]);
  const [watchError, setWatchError] = useState<string | null>(null);
  useEffect(() => {
    // The active channel is the one the SDK re-watches after a reconnect and keeps marked read.
    client.setActiveChannel(channel);
    channel.watch().catch((err: unknown) => setWatchError(err instanceof Error ? err.message : String(err)));
    return () => {
      if (client.activeChannel.getSnapshot() === channel) client.setActiveChannel(undefined);
    };
  }, [client, channel]);
  const state = useStore(channel.state);

  // Seeing the newest messages reads them (throttled by the SDK).
  const newest = state.messages[state.messages.length - 1]?.id;
  useEffect(() => {
    if (newest && state.channel && document.visibilityState === 'visible') channel.markRead();
  }, [channel, newest, state.channel]);

  const title = channelTitle(state.channel, state.members, viewerId, t('chat.channel.untitled'));
  useDocumentTitle(title);
  const others = otherMembers(state.members, viewerId).map(memberName);
  const error = state.error ?? watchError;
  const canSend = channel.can('send-message');
  const loadOlder = useCallback(() => void channel.loadPrev().catch(() => undefined), [channel]);
  const retry = useCallback(
    (message: ChatMessage) => void channel.resendMessage(message).catch(() => undefined),
    [channel],
  );
  const typingNames = Object.values(state.typing)
    .filter((entry) => !entry.parent_id && entry.user.id !== viewerId)
    .map((entry) => entry.user.name?.trim() || entry.user.id);

  return (
    <section className="channel" aria-labelledby="channel-title">
      <header className="channel-header">
        <Link to="/app" className="channel-back">
          <span aria-hidden="true">←</span> {t('chat.channel.back')}
        </Link>
        <div className="channel-heading">
          <h2 id="channel-title" className="channel-title">
            {title}
          </h2>
          {others.length > 1 ? (
            <p className="channel-members muted">{t('chat.channel.members', { names: others.join(', ') })}</p>
          ) : null}
        </div>
      </header>
      {error && state.messages.length === 0 ? (
        <div className="panel-message" role="alert">
          <p>{t('chat.channel.error')}</p>
          <p className="muted">{error}</p>
        </div>
      ) : (
        <MessageList
          messages={state.messages}
          viewerId={viewerId}
          loading={state.loading || !state.channel}
          hasPrev={state.hasPrev}
          loadingOlder={state.loadState === 'loading-top'}
          onLoadOlder={loadOlder}
          onRetry={retry}
        />
      )}
      <TypingIndicator names={typingNames} />
      {state.channel ? <MessageComposer channel={channel} canSend={canSend} /> : null}
    </section>
  );
}

function TypingIndicator({ names }: { names: string[] }) {
  return (
    <p className="typing muted" aria-live="polite">
      {names.length === 0
        ? ''
        : names.length === 1
          ? t('chat.typing.one', { name: names[0] ?? '' })
          : t('chat.typing.many', { names: names.join(', ') })}
    </p>
  );
}

/** Route `/app` without a channel (product-spec §2, "Chat messenger screen"). */
export function NoChannel() {
  useDocumentTitle(t('chat.channels.title'));
  return (
    <div className="no-channel">
      <p>{t('chat.noChannel')}</p>
    </div>
  );
}
