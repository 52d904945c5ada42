import { APIError } from 'better-auth/api';
import type { Queryable } from '../../platform/db.js';

/** How many attempts one e-mail address gets per window, by auth endpoint (better-auth path). */
export const ADDRESS_LIMITS: Record<string, { max: number; windowSeconds: number }> = {
  '/sign-up/email': { max: 5, windowSeconds: 15 * 60 },
  '/sign-in/magic-link': { max: 5, windowSeconds: 15 * 60 },
  '/request-password-reset': { max: 5, windowSeconds: 15 * 60 },
  '/send-verification-email': { max: 5, windowSeconds: 15 * 60 },
};

/**
 * Password sign-in. A limit on the account alone would let a stranger lock its owner out with a few wrong
 * passwords, so the hard limit is on the account AND the client address together (`pairMax` failed attempts
 * per window); past `slowAfter` failures on the account from everywhere, every attempt on it waits a little
 * longer (`delayStepMs` per failure, at most `maxDelayMs`): guessing from many addresses slows down, and the
 * owner, from an address of their own, still signs in with the right password.
 */
export const SIGN_IN_LIMITS = {
  windowSeconds: 15 * 60,
  pairMax: 10,
  slowAfter: 10,
  delayStepMs: 100,
  maxDelayMs: 1000,
};

const SIGN_IN = '/sign-in/email';
const addressKey = (path: string, email: string) => `${path}:${email.trim().toLowerCase()}`;
const pairKey = (email: string, ip: string) => `${addressKey(SIGN_IN, email)}:from:${ip}`;

const TOO_MANY = (message: string) =>
  new APIError('TOO_MANY_REQUESTS', { code: 'TOO_MANY_REQUESTS', message });

/** Counts one attempt under `key` in a fixed window of `windowSeconds`; answers the count (one atomic upsert). */
async function countAttempt(q: Queryable, key: string, windowSeconds: number): Promise<number> {
  const { rows } = await q.query<{ count: number }>(
    `INSERT INTO auth_address_limits AS l (key, window_start, count) VALUES ($1, now(), 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN l.window_start < now() - make_interval(secs => $2) THEN 1 ELSE l.count + 1 END,
       window_start = CASE WHEN l.window_start < now() - make_interval(secs => $2) THEN now() ELSE l.window_start END
     RETURNING count`,
    [key, windowSeconds],
  );
  return rows[0]?.count ?? 0;
}

/**
 * Counts one attempt for (`path`, `email`) in a fixed window and throws 429 past the limit. One atomic upsert
 * in the database, so every node shares the count; the answer does not depend on whether the address has an
 * account (no enumeration through the limiter).
 */
export async function consumeAddressAttempt(q: Queryable, path: string, email: string): Promise<void> {
  const limit = ADDRESS_LIMITS[path];
  if (!limit) return;
  if ((await countAttempt(q, addressKey(path, email), limit.windowSeconds)) > limit.max) {
    throw TOO_MANY('Too many attempts for this e-mail address. Please try again later.');
  }
}

/**
 * Counts a password sign-in attempt before the password is checked (so parallel attempts cannot slip past):
 * throws 429 when this address made too many for this account, else waits as long as the account's failures
 * from everywhere ask (see {@link SIGN_IN_LIMITS}). A successful sign-in takes its attempt back
 * ({@link forgetSignInAttempt}), so only failures count.
 */
export async function consumeSignInAttempt(q: Queryable, email: string, ip: string): Promise<void> {
  const { windowSeconds, pairMax, slowAfter, delayStepMs, maxDelayMs } = SIGN_IN_LIMITS;
  if ((await countAttempt(q, pairKey(email, ip), windowSeconds)) > pairMax) {
    throw TOO_MANY('Too many failed sign-ins for this account from here. Please try again later.');
  }
  const failures = await countAttempt(q, addressKey(SIGN_IN, email), windowSeconds);
  const delay = Math.min(maxDelayMs, (failures - slowAfter) * delayStepMs);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
}

/** After a successful sign-in: this address starts afresh, and its attempt no longer counts on the account. */
export async function forgetSignInAttempt(q: Queryable, email: string, ip: string): Promise<void> {
  await q.query('DELETE FROM auth_address_limits WHERE key = $1', [pairKey(email, ip)]);
  await q.query('UPDATE auth_address_limits SET count = greatest(count - 1, 0) WHERE key = $1', [
    addressKey(SIGN_IN, email),
  ]);
}

/** Drops windows that ended long ago (called now and then; the table stays small). */
export async function pruneAddressLimits(q: Queryable): Promise<void> {
  await q.query(`DELETE FROM auth_address_limits WHERE window_start < now() - interval '1 day'`);
}
