import type { ChatClient } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { CloseIcon } from '../../ui/icons';
import { useStore } from '../useStore';
import { noticeText } from './noticeText';

/**
 * The notification list (chat-spec §2): the SDK's temporary notices (they leave after 5 s) and permanent ones
 * ('Connection failure, reconnecting now...' while offline), errors announced at once, the rest politely.
 * Temporary notices can be dismissed early.
 */
export function NotificationList({ client, className }: { client: ChatClient; className?: string }) {
  const notices = useStore(client.notifications);
  if (notices.length === 0) return null;
  return (
    <ul className={`notices${className ? ` ${className}` : ''}`} data-testid="chat-notices">
      {notices.map((notice) => (
        <li
          key={notice.id}
          className={`notice notice-${notice.type}${notice.permanent ? ' notice-permanent' : ''}`}
        >
          {/* The live role sits inside the item: a list holds only list items (axe "list"). */}
          <span className="notice-text" role={notice.type === 'error' ? 'alert' : 'status'}>
            {noticeText(notice.text)}
          </span>
          {notice.permanent ? null : (
            <button
              type="button"
              className="icon-button icon-button-small"
              aria-label={t('chat.notice.dismiss')}
              onClick={() => client.notifications.remove(notice.id)}
            >
              <CloseIcon />
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
