import type { ChatClient } from '@caseroom/sdk';
import { t } from '../i18n/t';
import { useChat } from './ChatContext';
import { useStore } from './useStore';

/** A strip under the header while the chat is starting, offline or failed (chat-spec notifications). */
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
  return <LiveConnectionBanner client={chat.client} />;
}

function LiveConnectionBanner({ client }: { client: ChatClient }) {
  const connection = useStore(client.connection);
  if (connection.status === 'error') {
    return (
      <div className="banner banner-error" role="alert">
        {t('chat.connectError')}
      </div>
    );
  }
  // After connectUser resolved, 'connecting' means reconnecting.
  if (connection.status === 'disconnected' || connection.status === 'connecting' || !connection.online) {
    return (
      <div className="banner banner-warning" role="status">
        {t('chat.offline')}
      </div>
    );
  }
  return null;
}
