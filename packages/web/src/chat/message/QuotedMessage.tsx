import type { Message } from '@caseroom/protocol';
import { t } from '../../i18n/t';
import { QuotedAttachment } from './attachments/QuotedAttachment';

type Quoted = Pick<Message, 'id' | 'text' | 'user' | 'user_id' | 'attachments' | 'type'>;

/**
 * A quoted message inside a bubble or over the composer: sender and the start of its text. With `onJump`
 * (inside a bubble) it is a button that jumps to the quoted message.
 */
export function QuotedMessage({ message, onJump }: { message: Quoted; onJump?: (id: string) => void }) {
  const sender = message.user?.name?.trim() || message.user_id || t('chat.message.unknownUser');
  const text = message.type === 'deleted' ? t('chat.message.deleted') : message.text;
  const content = (
    <blockquote className="quoted" data-quoted-id={message.id}>
      <span className="quoted-sender">{sender}</span>
      <span className="quoted-text">{text.length > 200 ? `${text.slice(0, 200)}…` : text}</span>
      {message.type !== 'deleted' ? <QuotedAttachment attachments={message.attachments} /> : null}
    </blockquote>
  );
  if (!onJump) return content;
  return (
    <button type="button" className="quoted-jump" onClick={() => onJump(message.id)}>
      {content}
      <span className="visually-hidden">{t('chat.quote.jump')}</span>
    </button>
  );
}
