import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { t } from '../../i18n/t';
import { MoreIcon, SmileIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { useDismiss } from '../../ui/useDismiss';
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

/** The actions of one message (chat-spec §2, §6), each shown only with its capability. */
export function MessageMenu({ message, open, onOpenChange }: MessageMenuProps) {
  const ctx = useMessageListContext();
  const [picker, setPicker] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const close = useCallback(() => onOpenChange(false), [onOpenChange]);
  useDismiss(menu, open, close, toggle);
  const actions = availableActions(message, {
    capabilities: ctx.capabilities,
    viewerId: ctx.viewerId,
    mode: ctx.mode,
    clipboard: typeof navigator !== 'undefined' && Boolean(navigator.clipboard?.writeText),
  });

  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  if (actions.length === 0) return null;

  function run(action: MessageAction) {
    close();
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

  function onMenuKey(event: KeyboardEvent<HTMLDivElement>) {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = (at + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
      items[next]?.focus();
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      close();
      if (event.key === 'Escape') toggle.current?.focus();
    }
  }

  const label = (action: MessageAction) =>
    action === 'pin' && message.pinned ? t('chat.action.unpin') : t(`chat.action.${action}`);

  return (
    <div className="message-actions" data-open={open || picker || undefined}>
      {actions.includes('react') ? (
        <button
          type="button"
          className="icon-button"
          aria-label={t('chat.action.react')}
          aria-expanded={picker}
          onClick={() => setPicker((p) => !p)}
        >
          <SmileIcon />
        </button>
      ) : null}
      <button
        ref={toggle}
        type="button"
        className="icon-button"
        aria-label={t('chat.action.menu')}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => onOpenChange(!open)}
      >
        <MoreIcon />
      </button>
      {open ? (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          className="popover menu"
          aria-label={t('chat.action.menu')}
          onKeyDown={onMenuKey}
        >
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={`menu-item${action === 'delete' ? ' menu-item-danger' : ''}`}
              onClick={() => run(action)}
            >
              {label(action)}
            </button>
          ))}
        </div>
      ) : null}
      {picker ? <ReactionPicker message={message} onClose={() => setPicker(false)} /> : null}
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
