import nodemailer from 'nodemailer';
import type { Config } from './config.js';
import type { Queryable } from './db.js';
import type { Logger } from './logger.js';

/** One mail, always with a plain-text and an HTML body. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A mail as the dev outbox shows it (`GET /dev/mail.json`). */
export interface OutboxMail extends Mail {
  date: string;
}

/** Sends mail: through SMTP when `SMTP_URL` is set, into the dev outbox otherwise. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
  /** The dev outbox, newest first (empty for SMTP). */
  outbox(limit?: number): Promise<OutboxMail[]>;
}

/**
 * SMTP through nodemailer (`smtp://user:pass@host:587` with STARTTLS when offered, `smtps://` for implicit
 * TLS). Without `SMTP_URL` mail goes to the `dev_outbox` table, so every node of a cluster sees the same
 * outbox and it survives restarts.
 */
export function createMailer(config: Config, db: Queryable, log: Logger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      kind: 'smtp',
      async send(mail) {
        await transport.sendMail({ from: config.mailFrom, ...mail });
      },
      outbox: async () => [],
    };
  }
  return {
    kind: 'outbox',
    async send(mail) {
      await db.query('INSERT INTO dev_outbox ("to", subject, text, html) VALUES ($1, $2, $3, $4)', [
        mail.to,
        mail.subject,
        mail.text,
        mail.html,
      ]);
      log.info({ to: mail.to, subject: mail.subject }, 'mail kept in the dev outbox (/dev/mail)');
    },
    async outbox(limit = 100) {
      const { rows } = await db.query<Mail & { date: Date }>(
        'SELECT "to", subject, text, html, date FROM dev_outbox ORDER BY id DESC LIMIT $1',
        [limit],
      );
      return rows.map((r) => ({ ...r, date: new Date(r.date).toISOString() }));
    },
  };
}
