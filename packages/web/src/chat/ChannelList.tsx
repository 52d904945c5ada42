import { memo, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import type { ChatClient } from '@caseroom/sdk';
import { t } from '../i18n/t';
import { ChannelListToolbar } from './channels/ChannelListToolbar';
import { MutedIcon, PinIcon } from './channels/icons';
import { shownEntries, VIEW_EMPTY, type ListView } from './channels/listViews';
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
 * The user's chat channels, live: the toolbar (new chat, search, filters), then those of the selected case plan,
 * then the others, pinned ones first. Memoized on what it shows (the case plan by id and name): it follows the
 * list's store itself, so the app shell's own updates pass it by.
 */
export const ChannelList = memo(
  function ChannelList({ client, userId, caseplan }: ChannelListProps) {
    useTranslation(); // memoized: its texts follow a language change itself
    const [view, setView] = useState<ListView>('all');
    const list = useChannelList(client, userId, undefined, view);
    return (
      <>
        <ChannelListToolbar client={client} userId={userId} view={view} onView={setView} />
        {list ? <LiveChannelList list={list} userId={userId} caseplan={caseplan} view={view} /> : null}
      </>
    );
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
  view,
}: Omit<ChannelListProps, 'client'> & { list: ChannelListHandle; view: ListView }) {
  const state = useStore(list.state);
  const entries = shownEntries(view, state.channels);
  const groups = useMemo(() => groupByCaseplan(entries, caseplan?.id ?? null), [entries, caseplan?.id]);
  // The unread view holds unread chats first: more pages only matter while the last one loaded is unread.
  const more = state.hasNext && (view !== 'unread' || (state.channels.at(-1)?.unreadCount ?? 0) > 0);

  if (entries.length === 0 && !more) {
    return (
      <ChannelListStatus
        list={list}
        state={{ ...state, channels: entries }}
        classNames={{ error: 'panel-message', message: 'panel-message' }}
        texts={{
          error: t('chat.channels.error'),
          empty: t(VIEW_EMPTY[view]),
          loading: t('chat.channels.loading'),
        }}
      />
    );
  }

  return (
    <nav className="channel-list" aria-label={t('chat.channels.title')} data-view={view}>
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
          title={caseplan ? t('chat.channels.other') : t(VIEW_TITLE[view])}
          entries={groups.other}
          userId={userId}
          empty={t(VIEW_EMPTY[view])}
        />
      ) : null}
      {more ? (
        <button
          type="button"
          className="button button-small channel-list-more"
          disabled={state.loadingMore}
          onClick={() => void list.loadMore().catch(() => undefined)}
        >
          {t('chat.list.loadMore')}
        </button>
      ) : null}
    </nav>
  );
}

const VIEW_TITLE = {
  all: 'chat.channels.title',
  unread: 'chat.list.filter.unread',
  pinned: 'chat.list.filter.pinned',
  archived: 'chat.list.filter.archived',
} as const;

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
  const { channel, members, lastMessage, unreadCount, muted } = entry;
  const pinned = Boolean(entry.membership?.pinned_at);
  const title = channelTitle(channel, members, userId, t('chat.channel.untitled'));
  const preview = channelPreview(lastMessage, {
    none: t('chat.channels.noMessages'),
    deleted: t('chat.message.deleted'),
    removed: t('chat.message.removedByModerator'),
  });
  return (
    <NavLink
      to={chatPath(channel)}
      className="channel-link"
      data-cid={entry.cid}
      data-pinned={pinned || undefined}
      data-muted={muted || undefined}
    >
      <span className="channel-link-title">
        {pinned ? (
          <span className="channel-flag" title={t('chat.list.pinnedIcon')}>
            <PinIcon />
            <span className="visually-hidden">{t('chat.list.pinnedIcon')}</span>
          </span>
        ) : null}
        <span className="channel-link-name">{title}</span>
        {muted ? (
          <span className="channel-flag" title={t('chat.list.mutedIcon')} data-testid="muted-icon">
            <MutedIcon />
            <span className="visually-hidden">{t('chat.list.mutedIcon')}</span>
          </span>
        ) : null}
      </span>
      <span className="channel-link-preview">{preview}</span>
      {unreadCount > 0 ? (
        <span
          className={muted ? 'badge badge-muted' : 'badge'}
          aria-label={t('chat.channels.unread', { count: unreadCount })}
        >
          {unreadCount}
        </span>
      ) : null}
    </NavLink>
  );
}
