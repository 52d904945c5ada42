import { useCallback, useLayoutEffect, useRef } from 'react';
import { t } from '../i18n/t';
import { MessageItem } from './MessageItem';
import type { ChatMessage } from './sdkTypes';

interface MessageListProps {
  messages: readonly ChatMessage[];
  viewerId: string;
  loading: boolean;
  /** Older messages exist on the server. */
  hasPrev: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  onRetry: (message: ChatMessage) => void;
}

/** How close to an edge (px) counts as being there: the bottom for following, the top for loading older. */
const EDGE = 80;

/**
 * The messages of a channel, oldest first. Follows new messages while the reader is at the bottom (and after
 * their own send), loads older ones near the top while keeping the reader's place.
 */
export function MessageList(props: MessageListProps) {
  const { messages, viewerId, loading, hasPrev, loadingOlder, onLoadOlder, onRetry } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const heightBefore = useRef<number | null>(null);
  const first = messages[0]?.id;
  const last = messages[messages.length - 1];
  const lastIsOwn = last ? isOwn(last, viewerId) : false;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (heightBefore.current !== null) {
      if (loadingOlder) return;
      // Older messages went in above: keep what the reader was looking at in place.
      el.scrollTop += el.scrollHeight - heightBefore.current;
      heightBefore.current = null;
    } else if (atBottom.current || lastIsOwn) {
      el.scrollTop = el.scrollHeight;
    }
  }, [first, last?.id, lastIsOwn, messages.length, loadingOlder]);

  const loadOlder = useCallback(() => {
    if (!hasPrev || loadingOlder) return;
    heightBefore.current = scroller.current?.scrollHeight ?? null;
    onLoadOlder();
  }, [hasPrev, loadingOlder, onLoadOlder]);

  function onScroll() {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < EDGE;
    if (el.scrollTop < EDGE) loadOlder();
  }

  return (
    <div className="message-scroller" ref={scroller} onScroll={onScroll}>
      {messages.length === 0 ? (
        <p className="panel-message muted" role="status">
          {loading ? t('chat.channel.loading') : t('chat.channel.empty')}
        </p>
      ) : (
        <>
          {hasPrev ? (
            <div className="message-older">
              <button
                type="button"
                className="button button-small"
                onClick={loadOlder}
                disabled={loadingOlder}
              >
                {loadingOlder ? t('chat.channel.loadingOlder') : t('chat.channel.loadOlder')}
              </button>
            </div>
          ) : null}
          {/* The live region wraps the list: a role on the <ol> itself would drop its list semantics. */}
          <div role="log" aria-label={t('chat.messages.label')} aria-live="polite">
            <ol className="message-list">
              {messages.map((message) => (
                <MessageItem
                  key={message.id}
                  message={message}
                  own={isOwn(message, viewerId)}
                  onRetry={onRetry}
                />
              ))}
            </ol>
          </div>
        </>
      )}
    </div>
  );
}

function isOwn(message: ChatMessage, viewerId: string): boolean {
  return (message.user?.id ?? message.user_id) === viewerId;
}
