import type { ChatUser } from '@caseroom/protocol';
import { typingText } from './listLabels';

/** "Ann is typing…", "Ann and Bob are typing…", "Ann and 2 others are typing…" (chat-spec §9). */
export function TypingIndicator({ users }: { users: readonly ChatUser[] }) {
  const names = users.map((u) => u.name?.split(/\s+/)[0] || u.id);
  return (
    <p className="typing" aria-live="polite" data-testid="typing">
      {typingText(names)}
    </p>
  );
}
