import { useCallback, useEffect, useRef } from 'react';

/** chat-spec §9: the message menu opens on a 400 ms press on touch. */
export const LONG_PRESS_MS = 400;

/** Pointer handlers that call `onLongPress` after a 400 ms touch press that did not move or end. */
export function useLongPress(onLongPress: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
  }, []);
  useEffect(() => cancel, [cancel]);
  return {
    onPointerDown: (event: React.PointerEvent) => {
      if (event.pointerType !== 'touch') return;
      cancel();
      timer.current = setTimeout(onLongPress, LONG_PRESS_MS);
    },
    onPointerUp: cancel,
    onPointerLeave: cancel,
    onPointerCancel: cancel,
    onPointerMove: (event: React.PointerEvent) => {
      if (Math.abs(event.movementX) + Math.abs(event.movementY) > 6) cancel();
    },
  };
}
