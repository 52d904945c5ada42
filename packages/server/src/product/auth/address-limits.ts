import { APIError } from 'better-auth/api';
import type { Queryable } from '../../platform/db.js';

/** How many attempts one e-mail address gets per window, by auth endpoint (better-auth path). */
export const ADDRESS_LIMITS: Record<string, { max: number; windowSeconds: number }> = {
  '/sign-in/email': { max: 10, windowSeconds: 15 * 60 },
  '/sign-up/email': { max: 5, windowSeconds: 15 * 60 },
  '/sign-in/magic-link': { max: 5, windowSeconds: 15 * 60 },
  '/request-password-reset': { max: 5, windowSeconds: 15 * 60 },
  '/send-verification-email': { max: 5, windowSeconds: 15 * 60 },
};

const addressKey = (path: string, email: string) => `${path}:${email.trim().toLowerCase()}`;

/**
 * Counts one attempt for (`path`, `email`) in a fixed window and throws 429 past the limit. One atomic upsert
 * in the database, so every node shares the count; the answer does not depend on whether the address has an
 * account (no enumeration through the limiter).
 */
export async function consumeAddressAttempt(q: Queryable, path: string, email: string): Promise<void> {
  const limit = ADDRESS_LIMITS[path];
  if (!limit) return;
  const key = addressKey(path, email);
  const { rows } = await q.query<{ count: number }>(
    `INSERT INTO auth_address_limits AS l (key, window_start, count) VALUES ($1, now(), 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN l.window_start < now() - make_interval(secs => $2) THEN 1 ELSE l.count + 1 END,
       window_start = CASE WHEN l.window_start < now() - make_interval(secs => $2) THEN now() ELSE l.window_start END
     RETURNING count`,
    [key, limit.windowSeconds],
  );
  if ((rows[0]?.count ?? 0) > limit.max) {
    throw new APIError('TOO_MANY_REQUESTS', {
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many attempts for this e-mail address. Please try again later.',
    });
  }
}

/** Forgets the attempts of (`path`, `email`), e.g. after a successful sign-in. */
export async function clearAddressAttempts(q: Queryable, path: string, email: string): Promise<void> {
  await q.query('DELETE FROM auth_address_limits WHERE key = $1', [addressKey(path, email)]);
}

/** Drops windows that ended long ago (called now and then; the table stays small). */
export async function pruneAddressLimits(q: Queryable): Promise<void> {
  await q.query(`DELETE FROM auth_address_limits WHERE window_start < now() - interval '1 day'`);
}
