import { isAPIError } from 'better-auth/api';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyRequest } from 'fastify';
import type { Auth } from '../auth/auth.js';
import { unauthenticated } from '../errors.js';

/** Who is calling: the signed-in user's id. */
export interface Caller {
  uid: string;
}

export type Authenticate = (req: FastifyRequest) => Promise<Caller>;

/**
 * Builds the request authenticator every product route uses: a better-auth session from the
 * `Authorization: Bearer <token>` header or the session cookie. Throws `unauthenticated` (401) otherwise.
 */
export function createAuthenticator(auth: Auth): Authenticate {
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
    return { uid: session.user.id };
  };
}
