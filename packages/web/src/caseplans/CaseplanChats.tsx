import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ChatClient } from '@caseroom/sdk';
import { channelTitle } from '../chat/channelInfo';
import { useChat } from '../chat/ChatContext';
import type { ChannelListHandle } from '../chat/sdkTypes';
import { useStore } from '../chat/useStore';
import { t } from '../i18n/t';

/**
 * The plan's chats: the viewer's channels whose custom data `caseplans` includes the plan, live. A link opens
 * the chat in the pane (the plan is the selected one) or, on a narrow screen, in the popup.
 */
export function CaseplanChats({ caseplanId }: { caseplanId: string }) {
  const chat = useChat();
  return (
    <>
      <h2>{t('domain.caseplan.chats')}</h2>
      {chat.status === 'ready' ? (
        <PlanChannels client={chat.client} userId={chat.userId} caseplanId={caseplanId} />
      ) : (
        <p className="muted" role="status">
          {t('domain.caseplan.chats.connecting')}
        </p>
      )}
    </>
  );
}

function PlanChannels(props: { client: ChatClient; userId: string; caseplanId: string }) {
  const { client, userId, caseplanId } = props;
  const [list, setList] = useState<ChannelListHandle | null>(null);
  useEffect(() => {
    const created = client.channelList({
      filter: { members: { $in: [userId] }, caseplans: { $in: [caseplanId] } },
    });
    setList(created);
    created.load().catch(() => undefined); // shown through the list's state
    return () => created.dispose();
  }, [client, userId, caseplanId]);
  return list ? <ChannelLinks list={list} userId={userId} /> : null;
}

function ChannelLinks({ list, userId }: { list: ChannelListHandle; userId: string }) {
  const state = useStore(list.state);
  if (state.status === 'error') {
    return (
      <div role="alert" className="inline-error">
        <span>{t('domain.caseplan.chats.error')}</span>{' '}
        <button
          type="button"
          className="button button-small"
          onClick={() => void list.load().catch(() => undefined)}
        >
          {t('app.retry')}
        </button>
      </div>
    );
  }
  if (state.channels.length === 0) {
    return (
      <p className="muted" role="status">
        {state.status === 'ready' ? t('domain.caseplan.chats.empty') : t('domain.caseplan.chats.loading')}
      </p>
    );
  }
  return (
    <ul className="domain-list">
      {state.channels.map(({ cid, channel, members, unreadCount }) => (
        <li key={cid}>
          <Link to={`/app/chat/${encodeURIComponent(channel.type)}/${encodeURIComponent(channel.id)}`}>
            {channelTitle(channel, members, userId, t('chat.channel.untitled'))}
          </Link>
          {unreadCount > 0 ? (
            <span className="badge" aria-label={t('chat.channels.unread', { count: unreadCount })}>
              {unreadCount}
            </span>
          ) : null}
          {channel.frozen ? <span className="tag"> {t('domain.caseplans.closedTag')}</span> : null}
        </li>
      ))}
    </ul>
  );
}
