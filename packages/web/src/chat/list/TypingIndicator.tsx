import type { ChatUser } from '@caseroom/protocol';
import { t } from '../../i18n/t';
import { typingKey } from './listLabels';

/** "Ann is typing…", "Ann and Bob are typing…", "Ann, Bob and 2 others are typing…" (chat-spec §9). */
export function TypingIndicator({ users }: { users: readonly ChatUser[] }) {
  const names = users.map((u) => u.name?.split(/\s+/)[0] || u.id);
  const key = typingKey(names.length);
  let text = '';
  if (key === 'one') text = t('chat.typing.one', { name: names[0] ?? '' });
  else if (key === 'two') text = t('chat.typing.two', { first: names[0] ?? '', second: names[1] ?? '' });
  else if (key === 'many') text = t('chat.typing.many', { name: names[0] ?? '', count: names.length - 1 });
  return (
    <p className="typing" aria-live="polite" data-testid="typing">
      {text}
    </p>
  );
}
