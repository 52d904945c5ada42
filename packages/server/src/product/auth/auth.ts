import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { bearer, customSession, magicLink } from 'better-auth/plugins';
import { Kysely, PostgresDialect } from 'kysely';
import type { ChatServerApi } from '../../chat/server-api.js';
import type { Config } from '../../platform/config.js';
import type { Db } from '../../platform/db.js';
import type { Logger } from '../../platform/logger.js';
import type { AuthMailer } from '../mail/auth-mails.js';
import { recordSignIn, superAdminOf } from '../users/profiles.js';
import { consumeAddressAttempt, consumeSignInAttempt, forgetSignInAttempt } from './address-limits.js';
import { checkMagicLinkAddress } from './magic-link-address.js';
import { hashPassword, verifyPassword } from './password.js';
import { setupNeeded } from '../setup/state.js';
import { socialSignIn } from './social.js';

/** better-auth needs a password of at least this length (and we say so in the error). */
export const MIN_PASSWORD_LENGTH = 8;
/** Magic-link, reset and verification links expire after 15 minutes. */
export const LINK_TTL_SECONDS = 15 * 60;
/** The header carrying the client address fastify resolved (set by auth-routes, never taken from clients). */
export const CLIENT_IP_HEADER = 'x-caseroom-client-ip';

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

/** What auth needs beside the platform: mail for links, chat to cut off ended sessions. */
export interface AuthDeps {
  mail: AuthMailer;
  chat: ChatServerApi;
}

/** Per-IP limits (better-auth's limiter, stored in the database so every node shares them). */
const IP_LIMITS = {
  '/sign-in/*': { window: 60, max: 30 },
  '/sign-up/*': { window: 60, max: 20 },
  '/magic-link/verify': { window: 60, max: 30 },
  '/request-password-reset': { window: 60, max: 10 },
  '/reset-password': { window: 60, max: 10 },
  '/reset-password/*': { window: 60, max: 20 },
  '/send-verification-email': { window: 60, max: 10 },
};

const SIGN_IN_PATH = '/sign-in/email';
const SETUP_FIRST = 'Caseroom is not set up yet: the first person sets it up at /setup.';

/** The client address auth-routes resolved (fastify's `req.ip`); calls from the server itself have none. */
const clientIp = (headers: Headers | undefined) => headers?.get(CLIENT_IP_HEADER) ?? 'server';

/** A relative app path for `?state=` (never another origin). */
const safeState = (state: unknown) =>
  typeof state === 'string' && state.startsWith('/') && !state.startsWith('//') ? state : undefined;

/** Builds the better-auth instance over our database pool (PGlite or PostgreSQL alike, through Kysely). */
export function createAuth(config: Config, db: Db, log: Logger, deps: AuthDeps) {
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
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: LINK_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }, request) => {
        deps.mail.send('reset-password', user, { token }, request);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: LINK_TTL_SECONDS,
      sendVerificationEmail: async ({ user, token }, request) => {
        deps.mail.send('verify-email', user, { token }, request);
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: { enabled: true, storage: 'database', window: 60, max: 300, customRules: IP_LIMITS },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const email = (ctx.body as { email?: unknown } | undefined)?.email;
        if (typeof email === 'string') {
          if (ctx.path === SIGN_IN_PATH) await consumeSignInAttempt(db, email, clientIp(ctx.headers));
          else await consumeAddressAttempt(db, ctx.path, email);
        }
        if (ctx.path === '/magic-link/verify') await checkMagicLinkAddress(db, ctx.query);
        // A production install without accounts is set up at /setup: a plain sign-up first would leave an
        // account nobody can give an organization (no super-admin). Setup signs up as the server (no request).
        if (config.production && ctx.path === '/sign-up/email' && ctx.request && (await setupNeeded(db))) {
          throw new APIError('FORBIDDEN', { code: 'SETUP_NEEDED', message: SETUP_FIRST });
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        // Only failed password sign-ins count: a user signing in on many devices is fine.
        const email = (ctx.body as { email?: unknown } | undefined)?.email;
        if (ctx.path === SIGN_IN_PATH && ctx.context.newSession && typeof email === 'string') {
          await forgetSignInAttempt(db, email, clientIp(ctx.headers));
        }
      }),
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
        delete: {
          // A session that ends (sign-out, revocation) also ends the chat that was opened with it.
          after: async (session) => {
            try {
              await deps.chat.disconnectUser(session.userId);
            } catch (err) {
              log.error({ err, uid: session.userId }, 'disconnecting chat after sign-out failed');
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
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      database: { generateId: () => crypto.randomUUID() },
    },
    telemetry: { enabled: false },
    // better-auth's own messages go to our JSON log; of their extra arguments only errors (bodies and tokens not).
    logger: {
      log: (level, message, ...args) => {
        const err = args.find((a): a is Error => a instanceof Error);
        log[level]({ component: 'better-auth', ...(err ? { err } : {}) }, message);
      },
    },
    plugins: [
      bearer(),
      magicLink({
        expiresIn: LINK_TTL_SECONDS,
        storeToken: 'hashed',
        rateLimit: { window: 60, max: 10 },
        sendMagicLink: async ({ email, token, metadata }, ctx) => {
          const state = safeState((metadata as { state?: unknown } | undefined)?.state);
          deps.mail.send('magic-link', { email }, { token, ...(state ? { state } : {}) }, ctx?.request);
        },
      }),
      ...socialSignIn(config),
      // The client sees the super-admin claim in get-session, as in /api/me.
      customSession(async ({ user, session }) => ({
        user,
        session,
        claims: (await superAdminOf(db, user.id)) ? { sadmin: true } : {},
      })),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
export { APIError };
