import { memo } from 'react';
import { t } from '../i18n/t';
import { formatFullTime, formatMessageTime, initialOf } from './format';
import type { ChatMessage } from './sdkTypes';

interface MessageItemProps {
  message: ChatMessage;
  own: boolean;
  onRetry: (message: ChatMessage) => void;
}

/** One message: avatar, sender, time, send status and text; a failed own message offers a retry. */
export const MessageItem = memo(function MessageItem({ message, own, onRetry }: MessageItemProps) {
  if (message.type === 'system') {
    return <li className="message message-system">{message.text}</li>;
  }
  const sender = message.user?.name?.trim() || message.user_id || t('chat.message.unknownUser');
  const deleted = message.type === 'deleted' || Boolean(message.deleted_at);
  const classes = ['message', own ? 'message-own' : '', `message-${message.status}`]
    .filter(Boolean)
    .join(' ');
  return (
    <li className={classes} data-message-id={message.id} data-status={message.status}>
      <span className="avatar" aria-hidden="true">
        {initialOf(sender)}
      </span>
      <div className="message-body">
        <div className="message-meta">
          <span className="message-sender">{sender}</span>
          <time dateTime={message.created_at} title={formatFullTime(message.created_at)}>
            {formatMessageTime(message.created_at)}
          </time>
          {message.status === 'sending' ? (
            <span className="message-status">{t('chat.message.sending')}</span>
          ) : null}
        </div>
        <p className="message-text">{deleted ? <em>{t('chat.message.deleted')}</em> : message.text}</p>
        {message.status === 'failed' ? <FailedNotice message={message} onRetry={onRetry} /> : null}
      </div>
    </li>
  );
});

/** chat-spec §8: "Message Failed · Click to try again", or "Unauthorized" for a 403 (no retry then). */
function FailedNotice({ message, onRetry }: { message: ChatMessage; onRetry: (m: ChatMessage) => void }) {
  if (message.error?.status === 403) {
    return <p className="message-status-failed">{t('chat.message.unauthorized')}</p>;
  }
  return (
    <button type="button" className="message-retry" onClick={() => onRetry(message)}>
      {t('chat.message.failed')}
    </button>
  );
}
