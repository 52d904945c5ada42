import { memo, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import type { ChatClient } from '@caseroom/sdk';
import { t } from '../i18n/t';
import { ChannelAvatar } from './ChannelAvatar';
import { channelPreview, channelTitle, groupByCaseplan } from './channelInfo';
import { ChannelListStatus } from './ChannelListStatus';
import type { ChannelListEntry, ChannelListHandle } from './sdkTypes';
import { chatPath, useChannelList } from './useChannelList';
import { useStore } from './useStore';

interface ChannelListProps {
  client: ChatClient;
  userId: string;
  /** The selected case plan; its channels are listed first. */
  caseplan: { id: string; name: string } | null;
}

/**
 * The user's chat channels, live: those of the selected case plan, then the others. Memoized on what it shows (the
 * case plan by id and name): it follows the list's store itself, so the app shell's own updates pass it by.
 */
export const ChannelList = memo(
  function ChannelList({ client, userId, caseplan }: ChannelListProps) {
    useTranslation(); // memoized: its texts follow a language change itself
    const list = useChannelList(client, userId);
    if (!list) return null;
    return <LiveChannelList list={list} userId={userId} caseplan={caseplan} />;
  },
  (a, b) =>
    a.client === b.client &&
    a.userId === b.userId &&
    a.caseplan?.id === b.caseplan?.id &&
    a.caseplan?.name === b.caseplan?.name,
);

function LiveChannelList({
  list,
  userId,
  caseplan,
}: Omit<ChannelListProps, 'client'> & { list: ChannelListHandle }) {
  const state = useStore(list.state);
  const groups = useMemo(
    () => groupByCaseplan(state.channels, caseplan?.id ?? null),
    [state.channels, caseplan?.id],
  );

  if (state.channels.length === 0) {
    return (
      <ChannelListStatus
        list={list}
        state={state}
        classNames={{ error: 'panel-message', message: 'panel-message' }}
        texts={{
          error: t('chat.channels.error'),
          empty: t('chat.channels.empty'),
          loading: t('chat.channels.loading'),
        }}
      />
    );
  }

  return (
    <nav className="channel-list" aria-label={t('chat.channels.title')}>
      {caseplan ? (
        <ChannelGroup
          title={t('chat.channels.inCaseplan', { caseplan: caseplan.name })}
          entries={groups.inCaseplan}
          userId={userId}
          empty={t('chat.channels.emptyGroup')}
        />
      ) : null}
      {groups.other.length > 0 || !caseplan ? (
        <ChannelGroup
          title={caseplan ? t('chat.channels.other') : t('chat.channels.title')}
          entries={groups.other}
          userId={userId}
          empty={t('chat.channels.empty')}
        />
      ) : null}
    </nav>
  );
}

function ChannelGroup(props: { title: string; entries: ChannelListEntry[]; userId: string; empty: string }) {
  const { title, entries, userId, empty } = props;
  const headingId = useId();
  return (
    <section className="channel-group" aria-labelledby={headingId}>
      <h2 id={headingId} className="channel-group-title">
        {title}
      </h2>
      {entries.length === 0 ? (
        <p className="muted channel-group-empty">{empty}</p>
      ) : (
        <ul className="channel-group-items">
          {entries.map((entry) => (
            <li key={entry.cid}>
              <ChannelLink entry={entry} userId={userId} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ChannelLink({ entry, userId }: { entry: ChannelListEntry; userId: string }) {
  const { channel, members, lastMessage, unreadCount } = entry;
  const title = channelTitle(channel, members, userId, t('chat.channel.untitled'));
  const preview = channelPreview(lastMessage, {
    none: t('chat.channels.noMessages'),
    deleted: t('chat.message.deleted'),
    removed: t('chat.message.removedByModerator'),
  });
  return (
    <NavLink to={chatPath(channel)} className="channel-link" data-cid={entry.cid}>
      <ChannelAvatar members={members} viewerId={userId} />
      <span className="channel-link-title">{title}</span>
      <span className="channel-link-preview">{preview}</span>
      {unreadCount > 0 ? (
        <span className="badge" aria-label={t('chat.channels.unread', { count: unreadCount })}>
          {unreadCount}
        </span>
      ) : null}
    </NavLink>
  );
}
