// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messageKeyProps } from './messageKeys';

afterEach(cleanup);

function Bubble({ enabled, openMenu }: { enabled: boolean; openMenu: () => void }) {
  return (
    <article aria-label="Message from Chloe" {...messageKeyProps(enabled, openMenu)}>
      <button type="button">Who reacted</button>
    </article>
  );
}

describe('messageKeyProps', () => {
  it('makes the bubble a tab stop whose Enter, context-menu key or Shift+F10 opens the menu', () => {
    const openMenu = vi.fn();
    render(<Bubble enabled openMenu={openMenu} />);
    const bubble = screen.getByRole('article', { name: 'Message from Chloe' });
    expect(bubble.tabIndex).toBe(0);
    fireEvent.keyDown(bubble, { key: 'Enter' });
    fireEvent.keyDown(bubble, { key: 'ContextMenu' });
    fireEvent.keyDown(bubble, { key: 'F10', shiftKey: true });
    expect(openMenu).toHaveBeenCalledTimes(3);
    fireEvent.keyDown(bubble, { key: 'F10' });
    fireEvent.keyDown(bubble, { key: ' ' });
    expect(openMenu).toHaveBeenCalledTimes(3);
  });

  it("leaves the keys of the bubble's own controls alone, and a deleted message is no tab stop", () => {
    const openMenu = vi.fn();
    const { rerender } = render(<Bubble enabled openMenu={openMenu} />);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Who reacted' }), { key: 'Enter' });
    expect(openMenu).not.toHaveBeenCalled();
    rerender(<Bubble enabled={false} openMenu={openMenu} />);
    const bubble = screen.getByRole('article', { name: 'Message from Chloe' });
    expect(bubble.hasAttribute('tabindex')).toBe(false);
    fireEvent.keyDown(bubble, { key: 'Enter' });
    expect(openMenu).not.toHaveBeenCalled();
  });
});
