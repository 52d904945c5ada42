import type { Config } from '../../platform/config.js';
import type { Queryable } from '../../platform/db.js';
import type { Logger } from '../../platform/logger.js';
import type { Mailer } from '../../platform/mail.js';
import { renderAuthMail, type AuthMailKind } from './templates.js';

/** Where the links in a mail point: the web app's pages for each kind. */
const PAGE: Record<AuthMailKind, string> = {
  'verify-email': '/auth/verify',
  'reset-password': '/auth/reset',
  'magic-link': '/_action',
};

export interface AuthMailer {
  /**
   * Sends one mail in the background (the answer to the request must not take longer when an account exists:
   * no enumeration by timing). Failures are logged.
   */
  send(
    kind: AuthMailKind,
    to: { email: string; name?: string },
    params: Record<string, string>,
    request: Request | undefined,
  ): void;
}

/**
 * Auth mails: link to the web app, in the account's language (profiles.language), else the browser's
 * (Accept-Language), else English. Links always use PUBLIC_URL, never the request's Host header: trusting it
 * would let anyone send a victim a reset or sign-in link to their own host (password-reset poisoning).
 */
export function createAuthMailer(config: Config, db: Queryable, mailer: Mailer, log: Logger): AuthMailer {
  async function languageOf(email: string, request: Request | undefined): Promise<string | undefined> {
    const { rows } = await db.query<{ language: string | null }>(
      `SELECT p.language FROM "user" u JOIN profiles p ON p.id = u.id WHERE lower(u.email) = lower($1)`,
      [email],
    );
    return rows[0]?.language ?? request?.headers.get('accept-language') ?? undefined;
  }
  return {
    send(kind, to, params, request) {
      const url = new URL(PAGE[kind], config.publicUrl);
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      void (async () => {
        const language = await languageOf(to.email, request);
        await mailer.send(
          renderAuthMail(kind, language, { email: to.email, name: to.name ?? '' }, url.toString()),
        );
      })().catch((err: unknown) => log.error({ err, kind }, 'sending an auth mail failed'));
    },
  };
}
