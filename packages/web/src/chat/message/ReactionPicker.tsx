import { useRef } from 'react';
import { t } from '../../i18n/t';
import { useDismiss } from '../../ui/useDismiss';
import { useMessageListContext } from '../list/MessageListContext';
import type { ChatMessage } from '../sdkTypes';
import { REACTIONS } from './messageActions';

/** The reactions picker (chat-spec §3 default types: haha, like, love, sad, wow); a second pick removes. */
export function ReactionPicker({ message, onClose }: { message: ChatMessage; onClose: () => void }) {
  const ctx = useMessageListContext();
  const ref = useRef<HTMLDivElement>(null);
  useDismiss(ref, true, onClose);
  const own = new Set(message.own_reactions.map((r) => r.type));
  return (
    <div ref={ref} className="popover reaction-picker" role="group" aria-label={t('chat.reactions.pick')}>
      {REACTIONS.map(({ type, emoji }) => (
        <button
          key={type}
          type="button"
          className="reaction-option"
          aria-pressed={own.has(type)}
          aria-label={t(`chat.reaction.${type}` as 'chat.reaction.like')}
          title={t(`chat.reaction.${type}` as 'chat.reaction.like')}
          onClick={() => {
            onClose();
            toggleReaction(ctx.channel, message, type);
          }}
        >
          <span aria-hidden="true">{emoji}</span>
        </button>
      ))}
    </div>
  );
}

export function toggleReaction(
  channel: ReturnType<typeof useMessageListContext>['channel'],
  message: ChatMessage,
  type: string,
): void {
  const mine = message.own_reactions.some((r) => r.type === type);
  const done = mine ? channel.deleteReaction(message.id, type) : channel.sendReaction(message.id, { type });
  void done.catch(() => undefined);
}
