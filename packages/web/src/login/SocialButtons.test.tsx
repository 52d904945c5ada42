// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SocialButtons } from './SocialButtons';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SocialButtons', () => {
  it('shows one button per configured provider', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ authProviders: ['apple', 'google'] })),
    );
    render(<SocialButtons mode="sign-in" redirectTo="/app" />);
    expect(await screen.findByRole('button', { name: 'Sign in with Google' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in with Apple' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in with Microsoft' })).toBeNull();
  });

  it('shows nothing when no provider is configured', async () => {
    const fetch = vi.fn(async () => json({ authProviders: [] }));
    vi.stubGlobal('fetch', fetch);
    const { container } = render(<SocialButtons mode="sign-in" redirectTo="/app" />);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 0));
    expect(container.innerHTML).toBe('');
  });

  it('says so when /api/config fails, instead of hiding, and loads again on retry', async () => {
    const fetch = vi
      .fn<() => Promise<Response>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(json({ authProviders: ['microsoft'] }));
    vi.stubGlobal('fetch', fetch);
    render(<SocialButtons mode="sign-up" redirectTo="/app" />);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The other ways to sign in could not be loaded.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Sign up with Microsoft' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
