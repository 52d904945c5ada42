import { useLayoutEffect, useRef } from 'react';
import { t } from '../i18n/t';
import { formatFullTime, formatMessageTime, initialOf } from './format';
import type { ChatMessage } from './sdkTypes';

interface MessageListProps {
  messages: readonly ChatMessage[];
  viewerId: string;
  loading: boolean;
}

/** How close to the bottom (px) still counts as "reading the latest" for auto-scroll. */
const STICK_THRESHOLD = 80;

/** The messages of a channel, oldest first, kept scrolled to the latest while the reader is there. */
export function MessageList({ messages, viewerId, loading }: MessageListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const last = messages[messages.length - 1];

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Follow new messages when the reader is at the bottom, and always after one's own send.
    if (atBottom.current || last?.user_id === viewerId || last?.user?.id === viewerId) {
      el.scrollTop = el.scrollHeight;
    }
  }, [last?.id, last?.user_id, last?.user?.id, messages.length, viewerId]);

  function onScroll() {
    const el = scroller.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD;
  }

  return (
    <div className="message-scroller" ref={scroller} onScroll={onScroll}>
      {messages.length === 0 ? (
        <p className="panel-message muted" role="status">
          {loading ? t('chat.channel.loading') : t('chat.channel.empty')}
        </p>
      ) : (
        <ol className="message-list" role="log" aria-label={t('chat.messages.label')} aria-live="polite">
          {messages.map((message) => (
            <MessageItem key={message.id} message={message} own={isOwn(message, viewerId)} />
          ))}
        </ol>
      )}
    </div>
  );
}

function isOwn(message: ChatMessage, viewerId: string): boolean {
  return (message.user?.id ?? message.user_id) === viewerId;
}

function MessageItem({ message, own }: { message: ChatMessage; own: boolean }) {
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
          {message.status === 'failed' ? (
            <span className="message-status message-status-failed">{t('chat.message.failed')}</span>
          ) : null}
        </div>
        <p className="message-text">{deleted ? <em>{t('chat.message.deleted')}</em> : message.text}</p>
      </div>
    </li>
  );
}
