import { useState } from 'react';
import { t } from '../../i18n/t';
import { MoreIcon, SmileIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { useMenuButton } from '../../ui/useMenuButton';
import { useMessageListContext } from '../list/MessageListContext';
import type { ChatMessage } from '../sdkTypes';
import { availableActions, type MessageAction } from './messageActions';
import { ReactionPicker } from './ReactionPicker';

interface MessageMenuProps {
  message: ChatMessage;
  own: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The actions of one message (chat-spec §2, §6), each shown only with its capability: a WAI-ARIA menu button
 * (ui/useMenuButton) placed so it is never cut off, and the reactions picker beside it. The same menu opens on a
 * click, from the keyboard and on a long press on touch, so every way offers every action the viewer has.
 */
export function MessageMenu({ message, open, onOpenChange }: MessageMenuProps) {
  const ctx = useMessageListContext();
  const [picker, setPicker] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [smile, setSmile] = useState<HTMLButtonElement | null>(null);
  const menu = useMenuButton({ open, onOpenChange });
  const actions = availableActions(message, {
    capabilities: ctx.capabilities,
    viewerId: ctx.viewerId,
    mode: ctx.mode,
    clipboard: typeof navigator !== 'undefined' && Boolean(navigator.clipboard?.writeText),
  });

  if (actions.length === 0) return null;

  /** `keyboard`: chosen with Enter or Space, so the focus goes back to the menu button unless the action moves it. */
  function run(action: MessageAction, keyboard: boolean) {
    onOpenChange(false);
    if (keyboard && !['reply', 'quote', 'react', 'edit'].includes(action)) menu.focusTrigger();
    const { channel, composer } = ctx;
    const ignore = () => undefined; // failures show the SDK's §8 notice
    switch (action) {
      case 'reply':
        return ctx.openThread(message);
      case 'quote':
        composer.setQuoted(message);
        return ctx.focusComposer();
      case 'react':
        return setPicker(true);
      case 'edit':
        composer.startEditing(message);
        return ctx.focusComposer();
      case 'delete':
        return setConfirmDelete(true);
      case 'pin':
        return void (
          message.pinned ? channel.unpinMessage(message.id) : channel.pinMessage(message.id)
        ).catch(ignore);
      case 'flag':
        return void channel.flagMessage(message.id).catch(ignore);
      case 'markUnread':
        return void channel.markUnread(message.id).catch(ignore);
      case 'copy':
        return void navigator.clipboard.writeText(message.text).catch(ignore);
    }
  }

  const label = (action: MessageAction) =>
    action === 'pin' && message.pinned ? t('chat.action.unpin') : t(`chat.action.${action}`);

  return (
    <div className="message-actions" data-open={open || picker || undefined}>
      {actions.includes('react') ? (
        <button
          ref={setSmile}
          type="button"
          className="icon-button"
          aria-label={t('chat.action.react')}
          aria-expanded={picker}
          onClick={() => setPicker((p) => !p)}
        >
          <SmileIcon />
        </button>
      ) : null}
      <button {...menu.triggerProps} type="button" className="icon-button" aria-label={t('chat.action.menu')}>
        <MoreIcon />
      </button>
      {open ? (
        <div {...menu.menuProps} className="popover menu" aria-label={t('chat.action.menu')}>
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={`menu-item${action === 'delete' ? ' menu-item-danger' : ''}`}
              onClick={(event) => run(action, event.detail === 0)}
            >
              {label(action)}
            </button>
          ))}
        </div>
      ) : null}
      {picker ? (
        <ReactionPicker
          message={message}
          // The smiley button is there whenever reacting is (the menu's "React" opens the picker there too).
          anchor={smile}
          onClose={() => setPicker(false)}
        />
      ) : null}
      {confirmDelete ? (
        <Modal title={t('chat.delete.title')} onClose={() => setConfirmDelete(false)} className="modal-small">
          <p>{t('chat.delete.body')}</p>
          <div className="modal-actions">
            <button type="button" className="button" onClick={() => setConfirmDelete(false)}>
              {t('ui.cancel')}
            </button>
            <button
              type="button"
              className="button button-danger"
              onClick={() => {
                setConfirmDelete(false);
                void ctx.channel.deleteMessage(message.id).catch(() => undefined);
              }}
            >
              {t('chat.action.delete')}
            </button>
          </div>
        </Modal>
      ) : null}
    </div>
  );
}
