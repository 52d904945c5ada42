import type { KeyboardEvent } from 'react';

/**
 * Props that make a message bubble a keyboard stop (issue 15): it takes the focus (its actions show while it has
 * it), and Enter, the context-menu key or Shift+F10 on the bubble itself opens its actions menu. Keys on the
 * bubble's own controls (links, reactions, the actions buttons) are theirs.
 */
export function messageKeyProps(enabled: boolean, openMenu: () => void) {
  if (!enabled) return {};
  return {
    tabIndex: 0,
    'aria-keyshortcuts': 'Enter',
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      if (event.target !== event.currentTarget) return;
      if (event.key === 'Enter' || event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
        event.preventDefault();
        openMenu();
      }
    },
  };
}
