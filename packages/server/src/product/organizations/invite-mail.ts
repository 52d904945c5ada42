import crypto from 'node:crypto';
import type { Config } from '../../platform/config.js';
import type { Db, Queryable } from '../../platform/db.js';
import type { Logger } from '../../platform/logger.js';
import type { Mail, Mailer } from '../../platform/mail.js';

/**
 * Invite links carry `<inviteId>.<mac>`: an HMAC of the invite id under the server's auth secret. Holding
 * one proves the holder read the mail sent to the invited address, so an account with that address may
 * claim the invite before it verified the address (see `claimInvites`). Stateless: no token column.
 */
export function inviteToken(secret: string, inviteId: string): string {
  return `${inviteId}.${mac(secret, inviteId)}`;
}

/** The invite id a token stands for, or null when it was not made with `secret`. */
export function verifyInviteToken(secret: string, token: string): string | null {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return null;
  const id = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(secret, id));
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? id : null;
}

function mac(secret: string, inviteId: string): string {
  return crypto.createHmac('sha256', secret).update(`organization-invite:${inviteId}`).digest('base64url');
}

export interface InviteMailer {
  /** Mails the invite (after commit; failures are logged, the invite stays open and can be re-sent). */
  sendInvite(inviteId: string): Promise<void>;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The invite mail: who invited whom to which organization, and a link to sign up (or in) and join. */
export function renderInviteMail(
  to: string,
  organization: string,
  inviter: string | null,
  url: string,
): Mail {
  const who = inviter ? `${inviter} has invited you` : 'You have been invited';
  const body = `${who} to join ${organization} on Caseroom.`;
  const how = `Open the link below and create an account with this e-mail address (${to}), or sign in if you have one.`;
  const text = ['Hello,', '', body, how, '', url, '', '— Caseroom'].join('\n');
  const link = escapeHtml(url);
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1d2433">
<p>Hello,</p>
<p>${escapeHtml(body)}</p>
<p>${escapeHtml(how)}</p>
<p><a href="${link}" style="display:inline-block;padding:10px 18px;background:#2f5bd3;color:#fff;border-radius:6px;text-decoration:none">Join ${escapeHtml(organization)}</a></p>
<p style="font-size:12px;color:#777;word-break:break-all">${link}</p>
</body></html>`;
  return { to, subject: `You are invited to ${organization} on Caseroom`, text, html };
}

/**
 * The link of an invite: the login page, which after sign-up or sign-in goes to the organization with the
 * token (the web app passes it to `session-load`). Always on PUBLIC_URL: callables have no request origin.
 */
export function inviteUrl(config: Config, organizationId: string, token: string): string {
  const target = `/app/organizations/${encodeURIComponent(organizationId)}?invite=${encodeURIComponent(token)}`;
  const url = new URL('/', config.publicUrl);
  url.searchParams.set('redirectTo', target);
  return url.toString();
}

export function createInviteMailer(config: Config, db: Db, mailer: Mailer, log: Logger): InviteMailer {
  return {
    async sendInvite(inviteId) {
      try {
        const invite = await loadInvite(db, inviteId);
        if (!invite) return;
        const url = inviteUrl(config, invite.organization_id, inviteToken(config.authSecret, inviteId));
        await mailer.send(renderInviteMail(invite.email, invite.organization_name, invite.inviter_name, url));
      } catch (err) {
        log.error({ err, inviteId }, 'sending an invite mail failed');
      }
    },
  };
}

async function loadInvite(q: Queryable, inviteId: string) {
  const { rows } = await q.query<{
    email: string;
    organization_id: string;
    organization_name: string;
    inviter_name: string | null;
  }>(
    `SELECT i.email, i.organization_id, o.name AS organization_name, nullif(trim(u.name), '') AS inviter_name
       FROM organization_invites i
       JOIN organizations o ON o.id = i.organization_id
       LEFT JOIN "user" u ON u.id = i.invited_by
      WHERE i.id = $1 AND i.accepted_at IS NULL`,
    [inviteId],
  );
  return rows[0];
}
