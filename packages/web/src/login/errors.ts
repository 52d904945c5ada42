import { ApiError } from '../api/http';
import { t } from '../i18n/t';

/** The text to show for a failed auth call: the server's toast first, then what the status means. */
export function describeAuthError(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.isNetworkError) return t('login.error.network');
    if (err.toast) return err.toast;
    if (err.httpStatus === 429) return t('error.rateLimited');
    if (err.httpStatus === 401) return t('login.error.invalid');
    if (err.code === 'USER_ALREADY_EXISTS' || err.code === 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')
      return t('signUp.error.exists');
    if (err.code === 'EMAIL_MISMATCH') return t('magic.error.mismatch');
    if (err.code === 'INVALID_TOKEN') return t('magic.error.invalid');
    if (err.httpStatus >= 400 && err.httpStatus < 500) return err.message;
    return t('error.generic', { message: err.message });
  }
  return t('error.generic', { message: err instanceof Error ? err.message : String(err) });
}

/**
 * Whether a failed auth call is a fault to show as a toast (the server's own toast, product-spec §8 texts such as
 * 'Account not loaded', server and network failures, and rate limiting, which no change to the form fixes) rather
 * than a form error next to the fields.
 */
export function isAuthFault(err: unknown): boolean {
  if (!(err instanceof ApiError)) return true;
  return Boolean(err.toast) || err.httpStatus === 0 || err.httpStatus === 429 || err.httpStatus >= 500;
}

/**
 * The text for a social sign-in that came back with `?socialError=1&error=<code>` (better-auth's callback codes,
 * or the provider's OAuth error such as `access_denied`).
 */
export function describeSocialError(code: string | null): string {
  switch (code) {
    case 'account_not_linked':
    case 'unable_to_link_account':
      return t('login.error.notLinked');
    case 'access_denied':
      return t('login.error.socialCancelled');
    default:
      return t('login.error.social', { code: code ?? 'unknown' });
  }
}
