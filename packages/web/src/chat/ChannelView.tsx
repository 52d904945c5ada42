import { useCallback, useState } from 'react';
import { useNavigate, useOutletContext, useParams } from 'react-router-dom';
import { t } from '../i18n/t';
import { PlusIcon } from '../ui/icons';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { useMediaQuery } from '../ui/useMediaQuery';
import { ChannelPanel } from './channel/ChannelPanel';
import { channelCaseplans } from './channelInfo';
import { useChat } from './ChatContext';
import { ChatPopup } from './ChatPopup';
import { StartChatDialog } from './start/StartChatDialog';
import { useStore } from './useStore';
import { chatPath } from './useChannelList';
import './chat.css';

/** What the app shell hands to the chat routes. */
export interface ChatOutletContext {
  /** The case plan on screen; a channel not tied to it opens in the popup. */
  caseplanId: string | null;
}

/** product-spec §9: the popup is used under 576 px. */
export const POPUP_QUERY = '(max-width: 575.98px)';

/**
 * Route `/app/chat/:channelType/:channelId`: the channel in the chat pane, or in the popup (product-spec §2)
 * when the screen is under 576 px, or the channel's case plans do not include the visible case plan.
 */
export function ChannelRoute() {
  const { channelType = 'messaging', channelId = '' } = useParams();
  const chat = useChat();
  const navigate = useNavigate();
  const outlet = useOutletContext<ChatOutletContext | undefined>();
  const narrow = useMediaQuery(POPUP_QUERY);
  const close = useCallback(() => void navigate('/app'), [navigate]);
  if (chat.status !== 'ready') {
    return (
      <p className="panel-message muted" role="status">
        {t('chat.connecting')}
      </p>
    );
  }
  const key = `${channelType}:${channelId}`;
  return (
    <RoutedChannel
      key={key}
      narrow={narrow}
      caseplanId={outlet?.caseplanId ?? null}
      onClose={close}
      {...{ client: chat.client, viewerId: chat.userId, type: channelType, id: channelId }}
    />
  );
}

interface RoutedChannelProps {
  client: NonNullable<Extract<ReturnType<typeof useChat>, { status: 'ready' }>['client']>;
  viewerId: string;
  type: string;
  id: string;
  narrow: boolean;
  caseplanId: string | null;
  onClose: () => void;
}

function RoutedChannel({ narrow, caseplanId, onClose, ...channel }: RoutedChannelProps) {
  const state = useStore(channel.client.channel(channel.type, channel.id).state);
  const caseplans = channelCaseplans(state.channel);
  const elsewhere = Boolean(
    caseplanId && state.channel && caseplans.length > 0 && !caseplans.includes(caseplanId),
  );
  if (narrow || elsewhere) {
    return (
      <>
        <NoChannel />
        <ChatPopup {...channel} onClose={onClose} />
      </>
    );
  }
  return <ChannelPanel {...channel} onBack={onClose} />;
}

/** Route `/app` without a channel (product-spec §2, "Chat messenger screen"), with "start a new chat". */
export function NoChannel() {
  useDocumentTitle(t('chat.channels.title'));
  const chat = useChat();
  const navigate = useNavigate();
  const [starting, setStarting] = useState(false);
  return (
    <div className="no-channel">
      <p>{t('chat.noChannel')}</p>
      {chat.status === 'ready' ? (
        <button type="button" className="button button-primary" onClick={() => setStarting(true)}>
          <PlusIcon /> {t('chat.start.open')}
        </button>
      ) : null}
      {starting && chat.status === 'ready' ? (
        <StartChatDialog
          viewerId={chat.userId}
          onClose={() => setStarting(false)}
          onStarted={({ type, id }) => {
            setStarting(false);
            void navigate(chatPath({ type, id }));
          }}
        />
      ) : null}
    </div>
  );
}
