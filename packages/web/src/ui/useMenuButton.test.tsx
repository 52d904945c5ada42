// @vitest-environment jsdom
import { useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Modal } from './Modal';
import { menuKeyTarget, useMenuButton } from './useMenuButton';

afterEach(cleanup);

const LABELS = ['Reply in thread', 'Quote', 'Add reaction', 'Edit', 'Delete'];

function Menu({ onPick }: { onPick: (label: string) => void }) {
  const [open, setOpen] = useState(false);
  const menu = useMenuButton({ open, onOpenChange: setOpen });
  return (
    <>
      <button {...menu.triggerProps} type="button">
        Actions
      </button>
      {open ? (
        <div {...menu.menuProps} aria-label="Actions">
          {LABELS.map((label) => (
            <button
              key={label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                setOpen(false);
                onPick(label);
              }}
            >
              {label}
            </button>
          ))}
        </div>
      ) : null}
    </>
  );
}

const focused = () => document.activeElement?.textContent;
const key = (name: string) => fireEvent.keyDown(document.activeElement ?? document.body, { key: name });

describe('menuKeyTarget (WAI-ARIA menu keys)', () => {
  it('moves with the arrows (wrapping), Home and End, and a letter; other keys are not the menu’s', () => {
    expect(menuKeyTarget('ArrowDown', 0, LABELS)).toBe(1);
    expect(menuKeyTarget('ArrowDown', 4, LABELS)).toBe(0);
    expect(menuKeyTarget('ArrowUp', 0, LABELS)).toBe(4);
    expect(menuKeyTarget('ArrowUp', -1, LABELS)).toBe(4);
    expect(menuKeyTarget('Home', 3, LABELS)).toBe(0);
    expect(menuKeyTarget('End', 0, LABELS)).toBe(4);
    expect(menuKeyTarget('e', 0, LABELS)).toBe(3);
    expect(menuKeyTarget('q', 3, LABELS)).toBe(1);
    expect(menuKeyTarget('z', 0, LABELS)).toBeUndefined();
    expect(menuKeyTarget('Enter', 0, LABELS)).toBeUndefined();
    expect(menuKeyTarget(' ', 0, LABELS)).toBeUndefined();
    expect(menuKeyTarget('ArrowDown', -1, [])).toBeUndefined();
  });
});

describe('useMenuButton', () => {
  it('opens on the first item; arrows, Home and End move; Enter picks; Escape gives the focus back', () => {
    const onPick = vi.fn();
    render(<Menu onPick={onPick} />);
    const trigger = screen.getByRole('button', { name: 'Actions' });
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(trigger);
    const menu = screen.getByRole('menu', { name: 'Actions' });
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(trigger.getAttribute('aria-controls')).toBe(menu.id);
    expect(focused()).toBe('Reply in thread');
    key('ArrowDown');
    expect(focused()).toBe('Quote');
    key('ArrowUp');
    key('ArrowUp');
    expect(focused()).toBe('Delete');
    key('Home');
    expect(focused()).toBe('Reply in thread');
    key('End');
    expect(focused()).toBe('Delete');
    key('a');
    expect(focused()).toBe('Add reaction');

    key('Escape');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(onPick).not.toHaveBeenCalled();

    // Arrow Up on the button opens the menu on its last item; a click (Enter on a button) picks.
    key('ArrowUp');
    expect(focused()).toBe('Delete');
    key('ArrowUp');
    fireEvent.click(document.activeElement as HTMLElement);
    expect(onPick).toHaveBeenCalledWith('Edit');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('Tab closes the menu; a press outside closes it without taking the focus', () => {
    render(
      <>
        <Menu onPick={() => undefined} />
        <p>elsewhere</p>
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Actions' }));
    key('Tab');
    expect(screen.queryByRole('menu')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Actions' }));
    fireEvent.pointerDown(screen.getByText('elsewhere'));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('in a modal, Escape closes the menu and leaves the modal open', () => {
    const onClose = vi.fn();
    render(
      <Modal title="Chat" onClose={onClose}>
        <Menu onPick={() => undefined} />
      </Modal>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Actions', hidden: true }));
    key('Escape');
    expect(screen.queryByRole('menu', { hidden: true })).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    key('Escape');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
