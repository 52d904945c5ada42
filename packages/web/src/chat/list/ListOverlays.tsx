import { useEffect, useState } from 'react';
import { t } from '../../i18n/t';
import { ArrowDownIcon, CloseIcon } from '../../ui/icons';

/** chat-spec §9: the jump-to-latest button reappears 100 ms after it was used. */
export const JUMP_BUTTON_REAPPEAR_MS = 100;

/** The jump-to-latest button with the count of messages that came in meanwhile. */
export function JumpToLatest({
  visible,
  count,
  onJump,
}: {
  visible: boolean;
  count: number;
  onJump: () => void;
}) {
  const [suppressed, setSuppressed] = useState(false);
  useEffect(() => {
    if (!suppressed) return;
    const timer = setTimeout(() => setSuppressed(false), JUMP_BUTTON_REAPPEAR_MS);
    return () => clearTimeout(timer);
  }, [suppressed]);
  if (!visible || suppressed) return null;
  return (
    <button
      type="button"
      className="jump-latest"
      aria-label={count > 0 ? t('chat.list.jumpLatestCount', { count }) : t('chat.list.jumpLatest')}
      onClick={() => {
        setSuppressed(true);
        onJump();
      }}
    >
      <ArrowDownIcon />
      {count > 0 ? <span className="jump-latest-count">{count}</span> : null}
    </button>
  );
}

/** The unread notification (chat-spec §2): how many are unread, jump to the first, dismiss. */
export function UnreadNotice({
  count,
  onJump,
  onDismiss,
}: {
  count: number;
  onJump: () => void;
  onDismiss: () => void;
}) {
  return (
    <div className="unread-notice" role="status">
      <button type="button" className="link-button" onClick={onJump}>
        {t('chat.list.unread', { count })}
      </button>
      <button
        type="button"
        className="icon-button icon-button-small"
        aria-label={t('chat.list.unreadDismiss')}
        onClick={onDismiss}
      >
        <CloseIcon />
      </button>
    </div>
  );
}
