import type { Message } from '@caseroom/protocol';
import { t } from '../../i18n/t';

type Quoted = Pick<Message, 'id' | 'text' | 'user' | 'user_id' | 'attachments' | 'type'>;

/** A quoted message inside a bubble or over the composer: sender and the start of its text. */
export function QuotedMessage({ message }: { message: Quoted }) {
  const sender = message.user?.name?.trim() || message.user_id || t('chat.message.unknownUser');
  const text = message.type === 'deleted' ? t('chat.message.deleted') : message.text;
  return (
    <blockquote className="quoted" data-quoted-id={message.id}>
      <span className="quoted-sender">{sender}</span>
      <span className="quoted-text">{text.length > 200 ? `${text.slice(0, 200)}…` : text}</span>
    </blockquote>
  );
}
