import { betterAuth } from 'better-auth';
import { bearer } from 'better-auth/plugins';
import { Kysely, PostgresDialect } from 'kysely';
import type { Config } from '../../platform/config.js';
import type { Db } from '../../platform/db.js';

/** better-auth needs a password of at least this length (and we say so in the error). */
export const MIN_PASSWORD_LENGTH = 8;

/** Builds the better-auth instance over our database pool (PGlite or PostgreSQL alike, through Kysely). */
export function createAuth(config: Config, db: Db) {
  const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: db.pool as never }) });
  return betterAuth({
    appName: 'Caseroom',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    database: { db: kysely, type: 'postgres' },
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
    advanced: {
      cookiePrefix: 'caseroom',
      useSecureCookies: config.publicUrl.startsWith('https:'),
      database: { generateId: () => crypto.randomUUID() },
    },
    telemetry: { enabled: false },
    plugins: [bearer()],
  });
}

export type Auth = ReturnType<typeof createAuth>;
