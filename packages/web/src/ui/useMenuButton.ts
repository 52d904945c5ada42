import {
  useCallback,
  useEffect,
  useId,
  useRef,
  type CSSProperties,
  type KeyboardEvent,
  type RefCallback,
} from 'react';
import type { Placement } from '@floating-ui/react-dom';
import { useLayer } from './layers';
import { usePopoverPosition } from './usePopoverPosition';

const ITEM = '[role="menuitem"],[role="menuitemcheckbox"],[role="menuitemradio"]';

/** The enabled items of `menu`, in order. */
export function menuItems(menu: HTMLElement | null): HTMLElement[] {
  if (!menu) return [];
  return [...menu.querySelectorAll<HTMLElement>(ITEM)].filter(
    (item) => !item.hasAttribute('disabled') && item.getAttribute('aria-disabled') !== 'true',
  );
}

/**
 * The index of the item a key moves the focus to in a menu of `count` items with `at` focused (-1: none), or
 * undefined for keys the menu does not use: Arrow Down and Up wrap around, Home and End go to the ends, a
 * printable character goes to the next item whose label starts with it (WAI-ARIA menu pattern).
 */
export function menuKeyTarget(key: string, at: number, labels: readonly string[]): number | undefined {
  const count = labels.length;
  if (count === 0) return undefined;
  switch (key) {
    case 'ArrowDown':
      return (at + 1) % count;
    case 'ArrowUp':
      return at <= 0 ? count - 1 : at - 1;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
  }
  if (key.length !== 1 || key === ' ') return undefined;
  const char = key.toLocaleLowerCase();
  for (let step = 1; step <= count; step++) {
    const index = (at + step + count) % count;
    if (labels[index]?.trim().toLocaleLowerCase().startsWith(char)) return index;
  }
  return undefined;
}

export interface MenuButtonOptions {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where the menu goes when there is room (default below the button, right-aligned). */
  placement?: Placement;
}

export interface MenuButton {
  /** Spread on the button that opens the menu. */
  triggerProps: {
    ref: RefCallback<HTMLElement>;
    'aria-haspopup': 'menu';
    'aria-expanded': boolean;
    'aria-controls': string | undefined;
    onClick: () => void;
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  };
  /** Spread on the menu element (rendered only while open). */
  menuProps: {
    ref: RefCallback<HTMLElement>;
    id: string;
    role: 'menu';
    style: CSSProperties;
    'data-floating': '';
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  };
  /** Puts the focus back on the button (after an item that leaves it nowhere else, chosen by keyboard). */
  focusTrigger: () => void;
}

/**
 * The WAI-ARIA menu button: the button toggles the menu (Enter, Space, click; Arrow Down or Up open it on the
 * first or last item); in the menu the focus roves over the items (Arrow Up/Down, Home/End, a letter), Enter and
 * Space activate the focused item (they are buttons), Tab leaves and closes it, and Escape closes it and puts
 * the focus back on the button. The menu is a layer of the page's stack (ui/layers), so Escape closes the menu
 * and not the popup around it, and it is placed by {@link usePopoverPosition} so it is never cut off.
 */
export function useMenuButton({ open, onOpenChange, placement }: MenuButtonOptions): MenuButton {
  const menuId = useId();
  const trigger = useRef<HTMLElement | null>(null);
  const menu = useRef<HTMLElement | null>(null);
  const focusLast = useRef(false);
  const position = usePopoverPosition(open, placement);
  const { setReference, setFloating } = position;

  useLayer(open, {
    onDismiss: (reason) => {
      onOpenChange(false);
      if (reason === 'escape') trigger.current?.focus();
    },
    contains: (target) => Boolean(menu.current?.contains(target) || trigger.current?.contains(target)),
  });

  useEffect(() => {
    if (!open) return;
    const items = menuItems(menu.current);
    (focusLast.current ? items.at(-1) : items[0])?.focus({ preventScroll: true });
    focusLast.current = false;
  }, [open]);

  const triggerRef = useCallback(
    (element: HTMLElement | null) => {
      trigger.current = element;
      setReference(element);
    },
    [setReference],
  );
  const menuRef = useCallback(
    (element: HTMLElement | null) => {
      menu.current = element;
      setFloating(element);
    },
    [setFloating],
  );

  const onMenuKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Tab') {
      onOpenChange(false);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const items = menuItems(menu.current);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = menuKeyTarget(
      event.key,
      at,
      items.map((item) => item.textContent ?? ''),
    );
    if (next === undefined) return;
    event.preventDefault();
    items[next]?.focus({ preventScroll: true });
  };

  return {
    triggerProps: {
      ref: triggerRef,
      'aria-haspopup': 'menu',
      'aria-expanded': open,
      'aria-controls': open ? menuId : undefined,
      onClick: () => onOpenChange(!open),
      onKeyDown: (event) => {
        if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
        event.preventDefault();
        if (open) {
          const items = menuItems(menu.current);
          (event.key === 'ArrowUp' ? items.at(-1) : items[0])?.focus({ preventScroll: true });
          return;
        }
        focusLast.current = event.key === 'ArrowUp';
        onOpenChange(true);
      },
    },
    menuProps: {
      ref: menuRef,
      id: menuId,
      role: 'menu',
      style: position.style,
      'data-floating': '',
      onKeyDown: onMenuKeyDown,
    },
    focusTrigger: () => trigger.current?.focus(),
  };
}
