import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { t } from '../i18n/t';
import { CloseIcon } from './icons';
import { dismissTopLayer, LayerScope, useLayer } from './layers';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Hide the title visually (it still names the dialog). */
  hideTitle?: boolean;
  className?: string;
  /** Extra header content, before the close button. */
  headerExtra?: ReactNode;
  /** No header: the content brings its own title (with `titleId`) and close control. */
  bare?: { titleId: string };
}

/**
 * A modal dialog on the native `<dialog>` (focus kept inside, the page behind inert). Closes on Escape, on a
 * press on the backdrop and with its close button (chat-spec §2), as a layer of the page's layer stack
 * (ui/layers): with a menu or another modal open inside it, Escape closes that one first.
 */
export function Modal({ title, onClose, children, hideTitle, className, headerExtra, bare }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const ownTitleId = useId();
  const titleId = bare?.titleId ?? ownTitleId;
  const close = useRef(onClose);
  close.current = onClose;
  const layer = useLayer(true, {
    onDismiss: () => close.current(),
    // A press on the dialog element itself is on its backdrop: the content fills the box.
    contains: (target) => target !== ref.current && Boolean(ref.current?.contains(target)),
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (typeof dialog.showModal === 'function' && !dialog.open) dialog.showModal();
    else dialog.setAttribute('open', '');
    // The browser's own close request (Escape nobody claimed, Android's back gesture): the layer stack decides
    // what closes, which may be a menu inside this dialog rather than the dialog.
    const onCancel = (event: Event) => {
      event.preventDefault();
      dismissTopLayer('escape');
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (typeof dialog.close === 'function' && dialog.open) dialog.close();
    };
  }, []);

  // In a portal: a modal opened from a hidden or clipped place (a hover menu, a virtual list row) still shows.
  return createPortal(
    <dialog ref={ref} className={`modal ${className ?? ''}`} aria-labelledby={titleId}>
      <LayerScope layer={layer}>
        {bare ? (
          children
        ) : (
          <div className="modal-content">
            <header className="modal-header">
              <h2 id={titleId} className={hideTitle ? 'visually-hidden' : 'modal-title'}>
                {title}
              </h2>
              {headerExtra}
              <button type="button" className="icon-button" aria-label={t('ui.close')} onClick={onClose}>
                <CloseIcon />
              </button>
            </header>
            <div className="modal-body">{children}</div>
          </div>
        )}
      </LayerScope>
    </dialog>,
    document.body,
  );
}
