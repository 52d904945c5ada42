import { memo, useState } from 'react';
import { formatMessageTime, removedByModerator, type GroupPosition } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { formatFullTime, initialOf } from '../format';
import { useMessageListContext } from '../list/MessageListContext';
import type { ChatMessage } from '../sdkTypes';
import { AttachmentList } from './attachments/AttachmentList';
import { failureKind } from './messageActions';
import { messageKeyProps } from './messageKeys';
import { MessageMenu } from './MessageMenu';
import { MessageText } from './MessageText';
import { QuotedMessage } from './QuotedMessage';
import { ReactionsBar } from './ReactionsBar';
import { useLongPress } from './useLongPress';
import './messageKeyboard.css';

interface MessageBubbleProps {
  message: ChatMessage;
  position: GroupPosition;
  /** 'Seen by …' under the viewer's newest read message. */
  readBy?: string | undefined;
}

/**
 * One message (chat-spec §2 bubble): sender and time at the top of a group, markdown text with mentions, the
 * quoted message, reactions, the thread link, the edited flag, failed states with retry, the deleted display,
 * and the actions menu (hover or focus, click, or a 400 ms press on touch). The bubble is focusable: the actions
 * show while it holds the focus, and Enter (or the context-menu key) on it opens the menu.
 */
export const MessageBubble = memo(function MessageBubble({ message, position, readBy }: MessageBubbleProps) {
  const ctx = useMessageListContext();
  const [menuOpen, setMenuOpen] = useState(false);
  const longPress = useLongPress(() => setMenuOpen(true));
  if (message.type === 'system') {
    return <div className="message message-system">{message.text}</div>;
  }
  const own = (message.user?.id ?? message.user_id) === ctx.viewerId;
  const sender = message.user?.name?.trim() || message.user_id || t('chat.message.unknownUser');
  const deleted = message.type === 'deleted' || Boolean(message.deleted_at);
  const edited = !deleted && Boolean(message.message_text_updated_at);
  const failure = failureKind(message);
  const showHead = position === 'single' || position === 'top';
  const classes = [
    'message',
    own ? 'message-own' : '',
    `message-${message.status}`,
    `message-pos-${position}`,
    deleted ? 'message-deleted' : '',
    ctx.highlightedId === message.id ? 'message-highlight' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <article
      className={classes}
      data-message-id={message.id}
      data-status={message.status}
      aria-label={t('chat.message.from', { name: own ? t('chat.message.you') : sender })}
      {...messageKeyProps(!deleted, () => setMenuOpen(true))}
      {...longPress}
    >
      {showHead ? (
        <span className="avatar message-avatar" aria-hidden="true">
          {initialOf(sender)}
        </span>
      ) : (
        <span className="message-avatar-space" aria-hidden="true" />
      )}
      <div className="message-main">
        {showHead ? (
          <div className="message-meta">
            <span className="message-sender">{own ? t('chat.message.you') : sender}</span>
            <time dateTime={message.created_at} title={formatFullTime(message.created_at)}>
              {formatMessageTime(message.created_at)}
            </time>
          </div>
        ) : null}
        <div className="message-body">
          {message.quoted_message && !deleted ? (
            <QuotedMessage message={message.quoted_message} onJump={ctx.jumpToMessage} />
          ) : null}
          {deleted ? (
            <p className="message-text message-deleted-text">
              {removedByModerator(message) ? t('chat.message.removedByModerator') : t('chat.message.deleted')}
            </p>
          ) : (
            <MessageText text={message.text} mentioned={message.mentioned_users} />
          )}
          {!deleted && message.attachments?.length ? (
            <AttachmentList attachments={message.attachments} />
          ) : null}
          {edited ? <span className="message-edited">{t('chat.message.edited')}</span> : null}
          {message.pinned && !deleted ? (
            <span className="message-pinned">{t('chat.message.pinned')}</span>
          ) : null}
        </div>
        {!deleted ? <ReactionsBar message={message} /> : null}
        {message.status === 'sending' ? (
          <span className="message-status">{t('chat.message.sending')}</span>
        ) : null}
        {failure === 'retry' ? (
          <button type="button" className="message-retry" onClick={() => ctx.retry(message)}>
            {t('chat.message.failed')}
          </button>
        ) : failure === 'unauthorized' ? (
          <p className="message-status-failed">{t('chat.message.unauthorized')}</p>
        ) : null}
        {ctx.mode === 'main' && message.reply_count > 0 && !deleted ? (
          <button type="button" className="link-button thread-link" onClick={() => ctx.openThread(message)}>
            {message.reply_count === 1
              ? t('chat.thread.oneReply')
              : t('chat.thread.replies', { count: message.reply_count })}
          </button>
        ) : null}
        {readBy ? <p className="message-read-by">{readBy}</p> : null}
      </div>
      {!deleted ? (
        <MessageMenu message={message} own={own} open={menuOpen} onOpenChange={setMenuOpen} />
      ) : null}
    </article>
  );
});
