import { isAPIError } from 'better-auth/api';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyRequest } from 'fastify';
import type { Auth } from '../auth/auth.js';
import { ProductError, unauthenticated } from '../errors.js';

/** Who is calling: the signed-in user's id and when their session began (their last sign-in). */
export interface Caller {
  uid: string;
  sessionCreatedAt?: Date;
}

export type Authenticate = (req: FastifyRequest) => Promise<Caller>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF protection for cookie-authenticated writes: a non-GET request that authenticates with the session
 * cookie (no bearer token) must carry an Origin of this server (its public URL or the address it was
 * reached at). Browsers send Origin on every such request; a cross-site form or fetch cannot forge it. A
 * bearer token is never sent by the browser on its own, so bearer requests need no check.
 */
export function checkCookieWriteOrigin(req: FastifyRequest, publicUrl: string): void {
  if (SAFE_METHODS.has(req.method)) return;
  if (/^bearer\s/i.test(req.headers.authorization ?? '')) return;
  if (!req.headers.cookie) return; // no cookie, no session: authentication fails on its own
  const origin = req.headers.origin;
  const own = `${req.protocol}://${req.host}`.toLowerCase();
  if (!origin || (origin.toLowerCase() !== own && origin.toLowerCase() !== publicUrl.toLowerCase())) {
    throw new ProductError('permission-denied', 'Cross-site request refused');
  }
}

/**
 * Builds the request authenticator every product route uses: a better-auth session from the
 * `Authorization: Bearer <token>` header or the session cookie (cookie writes pass the Origin check).
 * Throws `unauthenticated` (401) otherwise.
 */
export function createAuthenticator(auth: Auth, publicUrl: string): Authenticate {
  return async (req) => {
    let session;
    try {
      session = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) });
    } catch (err) {
      // better-auth refusing the credentials is a 401; anything else (database down) is a real failure.
      if (isAPIError(err)) throw unauthenticated();
      throw err;
    }
    if (!session) throw unauthenticated();
    // After authentication: a request without a valid session is a 401 whatever its origin.
    checkCookieWriteOrigin(req, publicUrl);
    return { uid: session.user.id, sessionCreatedAt: new Date(session.session.createdAt) };
  };
}
