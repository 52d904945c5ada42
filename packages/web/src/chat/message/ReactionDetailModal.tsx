import { useCallback, useEffect, useState } from 'react';
import type { Reaction } from '@caseroom/protocol';
import { t } from '../../i18n/t';
import { Modal } from '../../ui/Modal';
import { Avatar } from '../../ui/Avatar';
import { useMessageListContext } from '../list/MessageListContext';
import type { ChatMessage } from '../sdkTypes';
import { reactionEmoji } from './messageActions';
import { reactionName } from './ReactionsBar';

/**
 * The reaction detail modal (chat-spec §2): the reaction types as tabs, the reacting users page by page,
 * a load-more button (and loading when scrolled within 1 px of the bottom). "Error loading reactions"
 * clears the selected type.
 */
/** Users per page in the reaction detail modal. */
const REACTIONS_PAGE = 25;

export function ReactionDetailModal({ message, onClose }: { message: ChatMessage; onClose: () => void }) {
  const { client } = useMessageListContext();
  const types = Object.entries(message.reaction_counts).filter(([, n]) => n > 0);
  const [type, setType] = useState<string | undefined>(undefined);
  const [reactions, setReactions] = useState<Reaction[]>([]);
  const [next, setNext] = useState<string | undefined>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState(false);

  const load = useCallback(
    async (after: string | undefined, selected: string | undefined) => {
      setLoading(true);
      setError(false);
      try {
        // The SDK shows "Error loading reactions" itself when the query fails.
        const page = await client.messageActions.queryReactions(message.id, {
          limit: REACTIONS_PAGE,
          ...(selected ? { type: selected } : {}),
          ...(after ? { next: after } : {}),
        });
        setReactions((prev) => (after ? [...prev, ...page.reactions] : page.reactions));
        setNext(page.next);
      } catch {
        setError(true);
        setType(undefined);
      } finally {
        setLoading(false);
      }
    },
    [client, message.id],
  );

  useEffect(() => {
    void load(undefined, type);
  }, [load, type]);

  const more = () => {
    if (next && !loading) void load(next, type);
  };

  return (
    <Modal title={t('chat.reactions.title')} onClose={onClose} className="modal-small">
      <div className="tabs" role="tablist" aria-label={t('chat.reactions.types')}>
        <button
          type="button"
          role="tab"
          aria-selected={type === undefined}
          onClick={() => setType(undefined)}
        >
          {t('chat.reactions.all')}
        </button>
        {types.map(([name, count]) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={type === name}
            onClick={() => setType(name)}
          >
            <span aria-hidden="true">{reactionEmoji(name)}</span>
            <span className="visually-hidden">{reactionName(name)}</span> {count}
          </button>
        ))}
      </div>
      {/* The panel wraps the list: a tabpanel role on the <ul> itself left its items outside any list (axe). */}
      <div role="tabpanel" aria-label={t('chat.reactions.title')}>
        <ul
          className="reaction-users"
          onScroll={(event) => {
            const el = event.currentTarget;
            if (el.scrollHeight - el.scrollTop - el.clientHeight <= 1) more();
          }}
        >
          {reactions.map((r) => {
            const name = r.user?.name ?? r.user_id;
            return (
              <li key={`${r.user_id}-${r.type}`}>
                <Avatar name={name} image={r.user?.image} online={r.user?.online} size="small" />
                <span className="reaction-user-name">{name}</span>
                <span aria-label={reactionName(r.type)}>{reactionEmoji(r.type)}</span>
              </li>
            );
          })}
        </ul>
      </div>
      {error ? <p className="inline-error">{t('chat.reactions.loadError')}</p> : null}
      {loading ? (
        <p className="muted" role="status">
          {t('app.loading')}
        </p>
      ) : null}
      {next && !loading ? (
        <button type="button" className="button button-small" onClick={more}>
          {t('chat.reactions.loadMore')}
        </button>
      ) : null}
    </Modal>
  );
}
