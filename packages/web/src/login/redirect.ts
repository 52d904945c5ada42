/** Where the app goes after sign-in when no `redirectTo` is given. */
export const DEFAULT_AFTER_LOGIN = '/app';

/**
 * The `redirectTo` target if it is a path on this site, otherwise the default. Rejects absolute and
 * protocol-relative URLs (`https://evil`, `//evil`, `/\evil`) so the login page is no open redirect, and the
 * login page itself.
 */
export function safeRedirect(target: string | null | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) {
    return DEFAULT_AFTER_LOGIN;
  }
  // The login page itself would send a signed-in user round in circles.
  const path = target.split(/[?#]/)[0];
  return path === '/' ? DEFAULT_AFTER_LOGIN : target;
}

/** The login URL that brings the user back to `path` (path + search) after signing in. */
export function loginUrlFor(path: string): string {
  return `/?redirectTo=${encodeURIComponent(path)}`;
}
