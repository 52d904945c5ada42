// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../i18n/t';
import { Avatar } from './Avatar';
import { initialsOf } from './initials';

describe('initialsOf (product-spec §9)', () => {
  it('takes the first letter of one word, of two words, of the first and last of more', () => {
    expect(initialsOf('maria')).toBe('M');
    expect(initialsOf('Maria Hansen')).toBe('MH');
    expect(initialsOf('  Ole  Johan   Dahl ')).toBe('OD');
    expect(initialsOf('Åse Ødegård')).toBe('ÅØ');
    expect(initialsOf('')).toBe('?');
    expect(initialsOf(undefined)).toBe('?');
  });
});

describe('Avatar', () => {
  afterEach(async () => {
    cleanup();
    await setLanguage('en');
  });

  it('shows the photo when there is one, hidden from screen readers beside a written name', () => {
    const { container } = render(<Avatar name="Maria Hansen" image="/api/users/m/photo?v=1" />);
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('/api/users/m/photo?v=1');
    expect(img.getAttribute('alt')).toBe('');
    expect(screen.queryByTestId('avatar-initials')).toBeNull();
  });

  it('names the person when it stands alone', () => {
    render(<Avatar name="Maria Hansen" image="/p.webp" decorative={false} />);
    expect(screen.getByRole('img', { name: 'Maria Hansen' })).toBeTruthy();
    cleanup();
    render(<Avatar name="Maria Hansen" decorative={false} />);
    expect(screen.getByRole('img', { name: 'Maria Hansen' }).textContent).toBe('MH');
  });

  it('falls back to the initials when there is no photo or it fails to load', () => {
    const { container } = render(<Avatar name="Gary Oak" image="/missing.webp" />);
    fireEvent.error(container.querySelector('img')!);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByTestId('avatar-initials').textContent).toBe('GO');
    expect(screen.getByTestId('avatar-initials').getAttribute('aria-hidden')).toBe('true');
  });

  it('shows the presence dot with a text only for an online person, in the interface language', async () => {
    render(<Avatar name="Gary Oak" online />);
    expect(screen.getByTestId('presence-dot').textContent).toBe('Gary Oak is online');
    cleanup();
    render(<Avatar name="Gary Oak" online={false} />);
    expect(screen.queryByTestId('presence-dot')).toBeNull();
    cleanup();
    await setLanguage('nb');
    render(<Avatar name="Gary Oak" online />);
    expect(screen.getByTestId('presence-dot').textContent).toBe('Gary Oak er pålogget');
  });
});
