import { describe, expect, it } from 'vitest';
import { DEFAULT_AFTER_LOGIN, loginUrlFor, safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it.each([
    ['/app?x', '/app?x'],
    ['/app/chat/messaging/abc', '/app/chat/messaging/abc'],
    [null, DEFAULT_AFTER_LOGIN],
    ['', DEFAULT_AFTER_LOGIN],
    ['https://evil.example', DEFAULT_AFTER_LOGIN],
    ['//evil.example/app', DEFAULT_AFTER_LOGIN],
    ['/\\evil.example', DEFAULT_AFTER_LOGIN],
    ['app', DEFAULT_AFTER_LOGIN],
    ['/', DEFAULT_AFTER_LOGIN],
    ['/?redirectTo=%2Fapp', DEFAULT_AFTER_LOGIN],
    ['/#top', DEFAULT_AFTER_LOGIN],
  ])('%s -> %s', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it('round-trips through the login URL', () => {
    const url = new URL(loginUrlFor('/app?x=1&y'), 'http://localhost');
    expect(url.pathname).toBe('/');
    expect(safeRedirect(url.searchParams.get('redirectTo'))).toBe('/app?x=1&y');
  });
});
