// @vitest-environment jsdom
import { useRef, useState, type ReactNode } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { layerStack, LayerScope, useLayer } from './layers';
import { Modal } from './Modal';
import { useDismiss } from './useDismiss';

afterEach(cleanup);

/** A popover that a button toggles, dismissed through the layer stack (as the menus and pickers are). */
function Popover({ name, children }: { name: string; children?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useDismiss(box, open, () => setOpen(false), toggle);
  return (
    <div>
      <button ref={toggle} type="button" onClick={() => setOpen((o) => !o)}>
        {`toggle ${name}`}
      </button>
      {open ? (
        <div ref={box} role="group" aria-label={name}>
          {children}
        </div>
      ) : null}
    </div>
  );
}

/** A modal with a popover inside, as a message menu in the phone's chat popup. */
function PopupWithMenu({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Chat" onClose={onClose}>
      <Popover name="menu">
        <button type="button">item</button>
      </Popover>
    </Modal>
  );
}

const escape = (target: Element = document.body) => fireEvent.keyDown(target, { key: 'Escape' });

describe('the layer stack (ui/layers)', () => {
  it('Escape closes the menu inside the chat popup first, then the popup', () => {
    const onClose = vi.fn();
    render(<PopupWithMenu onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'toggle menu' }));
    expect(screen.getByRole('group', { name: 'menu' })).toBeTruthy();

    escape(screen.getByRole('button', { name: 'item' }));
    expect(screen.queryByRole('group', { name: 'menu' })).toBeNull();
    expect(onClose).not.toHaveBeenCalled();

    escape();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('a modal opened over a modal (the image carousel in the chat popup) closes alone', () => {
    const outer = vi.fn();
    const inner = vi.fn();
    render(
      <Modal title="Chat" onClose={outer}>
        <Modal title="Images" onClose={inner}>
          <p>image</p>
        </Modal>
      </Modal>,
    );
    // Both mounted at once: React runs the inner effects first, the stack still puts the inner modal on top.
    escape(screen.getByText('image'));
    expect(inner).toHaveBeenCalledTimes(1);
    expect(outer).not.toHaveBeenCalled();
  });

  it('a layer is above the layer it is rendered in, whatever the order they opened in', () => {
    function Nested() {
      const outer = useLayer(true, { onDismiss: () => undefined });
      return (
        <LayerScope layer={outer}>
          <Inner />
        </LayerScope>
      );
    }
    let inner: ReturnType<typeof useLayer> | undefined;
    function Inner() {
      inner = useLayer(true, { onDismiss: () => undefined });
      return null;
    }
    render(<Nested />);
    const stack = layerStack();
    expect(stack).toHaveLength(2);
    expect(stack[0]).toBe(inner);
    expect(stack[1]?.parent).toBeNull();
  });

  it('leaves Escape to a focused control that claimed it (the composer leaving edit mode)', () => {
    const onClose = vi.fn();
    render(
      <Modal title="Chat" onClose={onClose}>
        <textarea aria-label="Message" onKeyDown={(event) => event.preventDefault()} />
      </Modal>,
    );
    escape(screen.getByRole('textbox', { name: 'Message' }));
    expect(onClose).not.toHaveBeenCalled();
    escape();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('a press outside closes only the top-most layer; a press inside it or on its toggle closes nothing', () => {
    const onClose = vi.fn();
    render(<PopupWithMenu onClose={onClose} />);
    const toggle = screen.getByRole('button', { name: 'toggle menu' });
    fireEvent.click(toggle);
    fireEvent.pointerDown(screen.getByRole('button', { name: 'item' }));
    fireEvent.pointerDown(toggle);
    expect(screen.getByRole('group', { name: 'menu' })).toBeTruthy();

    // The modal's backdrop is the dialog element itself: the menu goes, the popup stays.
    const dialog = screen.getByRole('dialog', { hidden: true });
    fireEvent.pointerDown(dialog);
    expect(screen.queryByRole('group', { name: 'menu' })).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.pointerDown(dialog);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("a dialog's cancel (Android's back gesture) closes the top-most layer, not necessarily the dialog", () => {
    const onClose = vi.fn();
    render(<PopupWithMenu onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'toggle menu' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    const cancel = new Event('cancel', { cancelable: true });
    act(() => void dialog.dispatchEvent(cancel));
    expect(cancel.defaultPrevented).toBe(true);
    expect(screen.queryByRole('group', { name: 'menu' })).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('with nothing open, Escape is left alone', () => {
    render(<Popover name="menu" />);
    const event = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    document.body.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(layerStack()).toHaveLength(0);
  });
});
