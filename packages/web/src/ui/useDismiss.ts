import { useEffect, type RefObject } from 'react';

/**
 * Calls `onDismiss` on Escape or on a pointer press outside `ref` while `open` (chat-spec §2: popups and
 * modals close on Escape or a click outside). Presses inside `ignore` (e.g. the toggle button) do not count.
 */
export function useDismiss(
  ref: RefObject<HTMLElement | null>,
  open: boolean,
  onDismiss: () => void,
  ignore?: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (!open) return;
    function onKey(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onDismiss();
      }
    }
    function onPointer(event: PointerEvent) {
      const target = event.target as Node | null;
      if (!target || ref.current?.contains(target) || ignore?.current?.contains(target)) return;
      onDismiss();
    }
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [ref, open, onDismiss, ignore]);
}
