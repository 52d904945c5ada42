import crypto from 'node:crypto';
import { APIError } from 'better-auth/api';
import type { Queryable } from '../../platform/db.js';

/** The identifier better-auth's magic-link plugin stores for a token (`storeToken: 'hashed'`). */
export function magicLinkIdentifier(token: string): string {
  return `magic-link:${crypto.createHash('sha256').update(token).digest('base64url')}`;
}

/**
 * A magic link signs in only together with the address it was sent to (`?email=`): a link forwarded or
 * intercepted is useless without it. Checked before better-auth consumes the token, so a wrong address
 * does not burn the link for its owner.
 */
export async function checkMagicLinkAddress(q: Queryable, query: unknown): Promise<void> {
  const { token, email } = (query ?? {}) as { token?: unknown; email?: unknown };
  if (typeof token !== 'string' || typeof email !== 'string' || !email) {
    throw new APIError('BAD_REQUEST', { code: 'EMAIL_REQUIRED', message: 'The e-mail address is required' });
  }
  const { rows } = await q.query<{ value: string }>('SELECT value FROM verification WHERE identifier = $1', [
    magicLinkIdentifier(token),
  ]);
  let sentTo: unknown;
  try {
    sentTo = rows[0] ? (JSON.parse(rows[0].value) as { email?: unknown }).email : undefined;
  } catch {
    sentTo = undefined;
  }
  if (typeof sentTo === 'string' && sentTo.toLowerCase() !== email.trim().toLowerCase()) {
    throw new APIError('BAD_REQUEST', {
      code: 'EMAIL_MISMATCH',
      message: 'This sign-in link was sent to another e-mail address',
    });
  }
}
