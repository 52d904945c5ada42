import { Link } from 'react-router-dom';
import type { ChatClient } from '@caseroom/sdk';
import { channelTitle } from '../chat/channelInfo';
import { useChat } from '../chat/ChatContext';
import { ChannelListStatus } from '../chat/ChannelListStatus';
import type { ChannelListHandle } from '../chat/sdkTypes';
import { chatPath, useChannelList } from '../chat/useChannelList';
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
  const list = useChannelList(props.client, props.userId, props.caseplanId);
  return list ? <ChannelLinks list={list} userId={props.userId} /> : null;
}

function ChannelLinks({ list, userId }: { list: ChannelListHandle; userId: string }) {
  const state = useStore(list.state);
  if (state.channels.length === 0) {
    return (
      <ChannelListStatus
        list={list}
        state={state}
        classNames={{ error: 'inline-error' }}
        texts={{
          error: t('domain.caseplan.chats.error'),
          empty: t('domain.caseplan.chats.empty'),
          loading: t('domain.caseplan.chats.loading'),
        }}
      />
    );
  }
  return (
    <ul className="domain-list">
      {state.channels.map(({ cid, channel, members, unreadCount }) => (
        <li key={cid}>
          <Link to={chatPath(channel)}>
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
