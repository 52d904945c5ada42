import { useRef } from 'react';
import { useLayer, type Layer } from '../../ui/layers';

/**
 * A side panel (a thread, the thread list) as a layer of the page's stack: Escape closes it when nothing above
 * it is open, presses elsewhere do not, and the focus goes back to what opened it when that is still there.
 */
export function usePanelLayer(onClose: () => void): Layer {
  const opener = useRef<Element | null>(typeof document === 'undefined' ? null : document.activeElement);
  return useLayer(true, {
    onDismiss: () => {
      onClose();
      const previous = opener.current;
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
    },
  });
}
