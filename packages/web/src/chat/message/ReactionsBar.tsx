import { useState } from 'react';
import { t } from '../../i18n/t';
import { useMessageListContext } from '../list/MessageListContext';
import type { ChatMessage } from '../sdkTypes';
import { reactionEmoji } from './messageActions';
import { ReactionDetailModal } from './ReactionDetailModal';
import { toggleReaction } from './ReactionPicker';

/** The reactions of a message: one chip per type with its count (pressed when the viewer's), and who reacted. */
export function ReactionsBar({ message }: { message: ChatMessage }) {
  const ctx = useMessageListContext();
  const [detail, setDetail] = useState(false);
  const counts = Object.entries(message.reaction_counts).filter(([, n]) => n > 0);
  if (counts.length === 0) return null;
  const own = new Set(message.own_reactions.map((r) => r.type));
  const canReact = ctx.capabilities.includes('send-reaction');
  return (
    <div className="reactions" role="group" aria-label={t('chat.reactions.label')}>
      {counts.map(([type, count]) => (
        <button
          key={type}
          type="button"
          className="reaction-chip"
          aria-pressed={own.has(type)}
          aria-label={t('chat.reactions.chip', { type: reactionName(type), count })}
          disabled={!canReact}
          onClick={() => toggleReaction(ctx.channel, message, type)}
        >
          <span aria-hidden="true">{reactionEmoji(type)}</span> {count}
        </button>
      ))}
      <button type="button" className="link-button reactions-who" onClick={() => setDetail(true)}>
        {t('chat.reactions.who')}
      </button>
      {detail ? <ReactionDetailModal message={message} onClose={() => setDetail(false)} /> : null}
    </div>
  );
}

export function reactionName(type: string): string {
  return ['haha', 'like', 'love', 'sad', 'wow'].includes(type)
    ? t(`chat.reaction.${type}` as 'chat.reaction.like')
    : type;
}
