import { useCallback, useEffect, useRef } from 'react';

/** chat-spec §9: the message menu opens on a 400 ms press on touch. */
export const LONG_PRESS_MS = 400;

/**
 * Pointer handlers that call `onLongPress` after a 400 ms touch press that did not move or end. The browser's
 * own long-press menu (text selection, "copy link") that follows on a phone is held back: the message menu
 * already offers what the viewer may do.
 */
export function useLongPress(onLongPress: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pressing = useRef(false);
  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
  }, []);
  useEffect(() => cancel, [cancel]);
  const end = () => {
    cancel();
    pressing.current = false;
  };
  return {
    onPointerDown: (event: React.PointerEvent) => {
      if (event.pointerType !== 'touch') return;
      cancel();
      pressing.current = true;
      timer.current = setTimeout(onLongPress, LONG_PRESS_MS);
    },
    onPointerUp: end,
    onPointerLeave: end,
    onPointerCancel: end,
    onPointerMove: (event: React.PointerEvent) => {
      if (Math.abs(event.movementX) + Math.abs(event.movementY) > 6) end();
    },
    onContextMenu: (event: React.MouseEvent) => {
      if (pressing.current) event.preventDefault();
    },
  };
}
