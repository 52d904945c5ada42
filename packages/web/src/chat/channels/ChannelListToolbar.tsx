import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ChatClient } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { PlusIcon } from '../../ui/icons';
import { MessageSearchDialog } from '../search/MessageSearchDialog';
import { StartChatDialog } from '../start/StartChatDialog';
import { chatPath } from '../useChannelList';
import { useStore } from '../useStore';
import { SearchIcon } from './icons';
import { LIST_VIEWS, VIEW_LABELS, type ListView } from './listViews';
import './channelList.css';

interface ChannelListToolbarProps {
  client: ChatClient;
  userId: string;
  view: ListView;
  onView: (view: ListView) => void;
}

/**
 * Above the channel list on every width: "New chat" (the start-chat dialog, product-spec §5), "Search all chats",
 * and the list's filters (All, Unread with the unread total of the chats not muted, Pinned, Archived).
 */
export function ChannelListToolbar({ client, userId, view, onView }: ChannelListToolbarProps) {
  const navigate = useNavigate();
  const me = useStore(client.me);
  const [dialog, setDialog] = useState<'start' | 'search' | null>(null);
  const unread = me?.total_unread_count ?? 0;
  return (
    <div className="channel-list-toolbar" role="region" aria-label={t('chat.list.toolbar')}>
      <div className="channel-list-actions">
        <button
          type="button"
          className="button button-primary button-small"
          onClick={() => setDialog('start')}
        >
          <PlusIcon /> {t('chat.list.newChat')}
        </button>
        <button type="button" className="button button-small" onClick={() => setDialog('search')}>
          <SearchIcon /> {t('chat.list.searchAll')}
        </button>
      </div>
      <div className="channel-list-filters" role="group" aria-label={t('chat.list.filters')}>
        {LIST_VIEWS.map((v) => (
          <button
            key={v}
            type="button"
            className="filter-chip"
            aria-pressed={view === v}
            onClick={() => onView(v)}
          >
            {t(VIEW_LABELS[v])}
            {v === 'unread' && unread > 0 ? (
              <span className="filter-count" data-testid="unread-total">
                <span aria-hidden="true">{unread}</span>
                <span className="visually-hidden">{t('chat.list.unreadTotal', { count: unread })}</span>
              </span>
            ) : null}
          </button>
        ))}
      </div>
      {dialog === 'start' ? (
        <StartChatDialog
          viewerId={userId}
          onClose={() => setDialog(null)}
          onStarted={({ type, id }) => {
            setDialog(null);
            void navigate(chatPath({ type, id }));
          }}
        />
      ) : null}
      {dialog === 'search' ? (
        <MessageSearchDialog
          client={client}
          viewerId={userId}
          scope={{ kind: 'all' }}
          onClose={() => setDialog(null)}
          onPick={(message) => {
            setDialog(null);
            const [type = '', ...rest] = message.cid.split(':');
            void navigate(chatPath({ type, id: rest.join(':') }), { state: { jumpTo: message.id } });
          }}
        />
      ) : null}
    </div>
  );
}
