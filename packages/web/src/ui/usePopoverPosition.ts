import { useCallback, type CSSProperties } from 'react';
import {
  autoUpdate,
  flip,
  hide,
  offset,
  shift,
  size,
  useFloating,
  type Placement,
} from '@floating-ui/react-dom';
import './popover.css';

/** Space kept between a popover and the edge of the screen. */
const EDGE = 8;
/** A popover never gets shorter than this (it scrolls inside instead); below it, flipping wins. */
const MIN_HEIGHT = 120;

export interface PopoverPosition {
  /** Callback ref for the element the popover belongs to (its toggle button). */
  setReference: (element: HTMLElement | null) => void;
  /** Callback ref for the popover itself. */
  setFloating: (element: HTMLElement | null) => void;
  /** Inline style for the popover: fixed position, hidden while its toggle is scrolled out of sight. */
  style: CSSProperties;
}

/**
 * Places a popover (menu, picker, popup) next to its toggle with Floating UI: on the preferred side when it fits,
 * flipped to the other side when it does not, shifted along the edge to stay inside the screen, and no taller
 * than the room there (it scrolls inside). Fixed positioning, so a scrolling message list or a popup's clipped
 * box never cuts it off; it follows the toggle while things scroll or resize.
 */
export function usePopoverPosition(
  open: boolean,
  placement: Placement = 'bottom-end',
  reference?: HTMLElement | null,
): PopoverPosition {
  const { refs, floatingStyles, middlewareData, isPositioned } = useFloating({
    open,
    placement,
    strategy: 'fixed',
    whileElementsMounted: autoUpdate,
    ...(reference !== undefined ? { elements: { reference } } : {}),
    middleware: [
      offset(4),
      flip({ padding: EDGE }),
      shift({ padding: EDGE }),
      size({
        padding: EDGE,
        apply({ availableHeight, elements }) {
          elements.floating.style.maxHeight = `${Math.max(MIN_HEIGHT, Math.floor(availableHeight))}px`;
        },
      }),
      hide({ strategy: 'referenceHidden' }),
    ],
  });
  const setReference = useCallback((element: HTMLElement | null) => refs.setReference(element), [refs]);
  const setFloating = useCallback((element: HTMLElement | null) => refs.setFloating(element), [refs]);
  return {
    setReference,
    setFloating,
    style: {
      ...floatingStyles,
      // Transparent, not hidden, until placed: the menu takes the focus at once, and hidden elements cannot.
      opacity: isPositioned ? undefined : 0,
      visibility: middlewareData.hide?.referenceHidden ? 'hidden' : undefined,
    },
  };
}
