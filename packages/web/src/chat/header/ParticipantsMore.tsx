import { useCallback, useId, useRef, useState } from 'react';
import { t } from '../../i18n/t';
import { CloseIcon } from '../../ui/icons';
import { useLayer } from '../../ui/layers';
import { usePopoverPosition } from '../../ui/usePopoverPosition';
import type { Participant } from '../participants';
import { ParticipantName } from './ParticipantName';

/**
 * '+ N more' and its 'All Participants' popup (product-spec §2): opens on hover with a mouse, on tap or
 * click otherwise (and with the keyboard); closes with its close button, Escape (the focus back on '+ N more')
 * or a click outside. Placed below the button and kept on screen (a phone's narrow header).
 */
export function ParticipantsMore({
  participants,
  more,
}: {
  participants: readonly Participant[];
  more: number;
}) {
  const [open, setOpen] = useState(false);
  const popup = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const popupId = useId();
  const titleId = useId();
  const close = useCallback(() => setOpen(false), []);
  // A mouse opens it on hover; the click that follows must not close it again.
  const hovered = useRef(false);
  const position = usePopoverPosition(open, 'bottom-start');
  const { setReference, setFloating } = position;
  useLayer(open, {
    onDismiss: (reason) => {
      close();
      if (reason === 'escape') toggle.current?.focus();
    },
    contains: (target) => Boolean(popup.current?.contains(target) || toggle.current?.contains(target)),
  });
  const toggleRef = useCallback(
    (element: HTMLButtonElement | null) => {
      toggle.current = element;
      setReference(element);
    },
    [setReference],
  );
  const popupRef = useCallback(
    (element: HTMLDivElement | null) => {
      popup.current = element;
      setFloating(element);
    },
    [setFloating],
  );

  return (
    <span className="participants-more">
      <button
        ref={toggleRef}
        type="button"
        className="link-button"
        aria-expanded={open}
        aria-controls={popupId}
        onClick={() => {
          if (hovered.current) {
            hovered.current = false;
            setOpen(true);
          } else setOpen((o) => !o);
        }}
        onPointerEnter={(event) => {
          if (event.pointerType === 'mouse' && !open) {
            hovered.current = true;
            setOpen(true);
          }
        }}
      >
        {t('chat.participants.more', { count: more })}
      </button>
      {open ? (
        <div
          ref={popupRef}
          style={position.style}
          data-floating=""
          id={popupId}
          className="popover participants-popup"
          role="dialog"
          aria-labelledby={titleId}
        >
          <div className="popover-header">
            <h3 id={titleId}>{t('chat.participants.title')}</h3>
            <button type="button" className="icon-button" aria-label={t('ui.close')} onClick={close}>
              <CloseIcon />
            </button>
          </div>
          <ul className="participants-list">
            {participants.map((p) => (
              <li key={p.id}>
                <ParticipantName participant={p} full />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </span>
  );
}
