import type { ChatClient } from '@caseroom/sdk';
import { t } from '../i18n/t';
import { useChat } from './ChatContext';
import { NotificationList } from './notices/NotificationList';
import { useStore } from './useStore';

/**
 * The strip under the header: "connecting" while the chat starts, the start error with a retry, then the SDK's
 * notification list while no channel is open (chat-spec §2/§8); an open channel panel has its own.
 */
export function ConnectionBanner() {
  const chat = useChat();
  if (chat.status === 'starting') {
    return (
      <div className="banner banner-info" role="status">
        {t('chat.connecting')}
      </div>
    );
  }
  if (chat.status === 'error') {
    return (
      <div className="banner banner-error" role="alert">
        {t('chat.connectError')}{' '}
        <button type="button" className="button button-small" onClick={chat.retry}>
          {t('app.retry')}
        </button>
      </div>
    );
  }
  return <AppNotices client={chat.client} />;
}

/** Outside a channel the notices show under the header; an open channel shows them in its own panel. */
function AppNotices({ client }: { client: ChatClient }) {
  const active = useStore(client.activeChannel);
  return active ? null : <NotificationList client={client} className="notices-app" />;
}
