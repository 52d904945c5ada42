import type { RefObject } from 'react';
import { useLayer } from './layers';

/**
 * Calls `onDismiss` on Escape or on a pointer press outside `ref` while `open` (chat-spec §2: popups and
 * modals close on Escape or a click outside), as one layer of the page's layer stack (ui/layers): only the
 * top-most layer closes. Presses inside `ignore` (e.g. the toggle button) do not count.
 */
export function useDismiss(
  ref: RefObject<HTMLElement | null>,
  open: boolean,
  onDismiss: () => void,
  ignore?: RefObject<HTMLElement | null>,
): void {
  useLayer(open, {
    onDismiss: () => onDismiss(),
    contains: (target) => Boolean(ref.current?.contains(target) || ignore?.current?.contains(target)),
  });
}
