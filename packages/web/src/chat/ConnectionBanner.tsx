import type { ChatClient } from '@caseroom/sdk';
import { t } from '../i18n/t';
import { useChat } from './ChatContext';
import { useStore } from './useStore';

/**
 * The strip under the header: "connecting" while the chat starts, the start error with a retry, then the SDK's
 * notification list (chat-spec §2/§8: 'Connection failure, reconnecting now...' and the like).
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
  return <ChatNotices client={chat.client} />;
}

function ChatNotices({ client }: { client: ChatClient }) {
  const notices = useStore(client.notifications);
  if (notices.length === 0) return null;
  return (
    <ul className="notices">
      {notices.map((notice) => (
        <li
          key={notice.id}
          className={`banner banner-${notice.type === 'error' ? 'error' : 'info'}`}
          role={notice.type === 'error' ? 'alert' : 'status'}
        >
          {notice.text}
        </li>
      ))}
    </ul>
  );
}
