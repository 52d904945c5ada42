import { betterAuth } from 'better-auth';
import { bearer } from 'better-auth/plugins';
import { Kysely, PostgresDialect } from 'kysely';
import type { Config } from '../../platform/config.js';
import type { Db } from '../../platform/db.js';
import type { Logger } from '../../platform/logger.js';
import { recordSignIn } from '../users/profiles.js';

/** better-auth needs a password of at least this length (and we say so in the error). */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * The origin a request was addressed to (`http://127.0.0.1:54321`), from its Host header.
 *
 * Trusting it is deliberate: a page served by this very server, on whatever host and port it was reached
 * (tests listen on ephemeral ports, deployments behind several names), may call the auth API. It does not
 * open a CSRF hole: a cross-site page's Origin differs from the Host it posts to, and a rebound hostname
 * (DNS rebinding) gets no cookies of ours, because browsers key cookies by the host the page names.
 */
export function requestOrigin(request: Request | undefined): string | undefined {
  if (!request) return undefined;
  const host = request.headers.get('host');
  if (!host || !/^[a-z0-9.\-[\]:]+$/i.test(host)) return undefined;
  const proto = new URL(request.url).protocol;
  return `${proto}//${host.toLowerCase()}`;
}

/** Builds the better-auth instance over our database pool (PGlite or PostgreSQL alike, through Kysely). */
export function createAuth(config: Config, db: Db, log: Logger) {
  const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: db.pool as never }) });
  return betterAuth({
    appName: 'Caseroom',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    database: { db: kysely, type: 'postgres' },
    trustedOrigins: (request) => {
      const own = requestOrigin(request);
      return [config.publicUrl, ...(own ? [own] : [])];
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: 256,
      autoSignIn: true,
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    databaseHooks: {
      session: {
        create: {
          // Runs after the sign-in transaction committed: the user record exists from the first session on.
          after: async (session) => {
            try {
              await recordSignIn(db, session.userId);
            } catch (err) {
              log.error({ err, uid: session.userId }, 'recording sign-in failed');
            }
          },
        },
      },
    },
    advanced: {
      cookiePrefix: 'caseroom',
      // better-auth turns the origin check off under NODE_ENV=test; we keep it on so tests see production.
      disableOriginCheck: false,
      useSecureCookies: config.publicUrl.startsWith('https:'),
      database: { generateId: () => crypto.randomUUID() },
    },
    telemetry: { enabled: false },
    plugins: [bearer()],
  });
}

export type Auth = ReturnType<typeof createAuth>;
