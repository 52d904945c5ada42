import type { Mail } from '../../platform/mail.js';

/** The mails of sign-in and accounts. */
export type AuthMailKind = 'verify-email' | 'reset-password' | 'magic-link';

interface Texts {
  subject: string;
  greeting: (name: string) => string;
  body: string;
  action: string;
  expiry: string;
  ignore: string;
}

type Catalogue = Record<AuthMailKind, Texts>;

const en: Catalogue = {
  'verify-email': {
    subject: 'Confirm your e-mail address for Caseroom',
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    body: 'Please confirm that this is your e-mail address by opening the link below.',
    action: 'Confirm e-mail address',
    expiry: 'The link works once and expires in 15 minutes.',
    ignore: 'If you did not create a Caseroom account, you can ignore this e-mail.',
  },
  'reset-password': {
    subject: 'Reset your Caseroom password',
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    body: 'Someone asked to reset the password of your Caseroom account. Open the link below to choose a new one.',
    action: 'Choose a new password',
    expiry: 'The link works once and expires in 15 minutes.',
    ignore: 'If you did not ask for this, you can ignore this e-mail; your password stays as it is.',
  },
  'magic-link': {
    subject: 'Your Caseroom sign-in link',
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    body: 'Open the link below to sign in to Caseroom.',
    action: 'Sign in to Caseroom',
    expiry: 'The link works once and expires in 15 minutes.',
    ignore: 'If you did not ask to sign in, you can ignore this e-mail.',
  },
};

const nb: Catalogue = {
  'verify-email': {
    subject: 'Bekreft e-postadressen din for Caseroom',
    greeting: (name) => (name ? `Hei ${name},` : 'Hei,'),
    body: 'Bekreft at dette er e-postadressen din ved å åpne lenken nedenfor.',
    action: 'Bekreft e-postadressen',
    expiry: 'Lenken virker én gang og utløper om 15 minutter.',
    ignore: 'Hvis du ikke har opprettet en Caseroom-konto, kan du se bort fra denne e-posten.',
  },
  'reset-password': {
    subject: 'Tilbakestill passordet ditt i Caseroom',
    greeting: (name) => (name ? `Hei ${name},` : 'Hei,'),
    body: 'Noen har bedt om å tilbakestille passordet til Caseroom-kontoen din. Åpne lenken nedenfor for å velge et nytt.',
    action: 'Velg nytt passord',
    expiry: 'Lenken virker én gang og utløper om 15 minutter.',
    ignore: 'Hvis det ikke var deg, kan du se bort fra denne e-posten; passordet ditt er uendret.',
  },
  'magic-link': {
    subject: 'Innloggingslenken din for Caseroom',
    greeting: (name) => (name ? `Hei ${name},` : 'Hei,'),
    body: 'Åpne lenken nedenfor for å logge inn i Caseroom.',
    action: 'Logg inn i Caseroom',
    expiry: 'Lenken virker én gang og utløper om 15 minutter.',
    ignore: 'Hvis du ikke har bedt om å logge inn, kan du se bort fra denne e-posten.',
  },
};

const catalogues: Record<string, Catalogue> = { en, nb };

/** The languages mails exist in; anything else falls back to English. */
export const MAIL_LANGUAGES = Object.keys(catalogues);

/** `nb-NO` -> `nb`, `no` -> `nb`; unknown or missing -> `en`. */
export function mailLanguage(tag: string | null | undefined): string {
  const base = (tag ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  if (base === 'no' || base === 'nn') return 'nb';
  return base in catalogues ? base : 'en';
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Renders one mail, plain text and HTML, in `language` (English fallback). */
export function renderAuthMail(
  kind: AuthMailKind,
  language: string | null | undefined,
  to: { email: string; name: string },
  url: string,
): Mail {
  const texts = (catalogues[mailLanguage(language)] ?? en)[kind];
  const greeting = texts.greeting(to.name);
  const text = [greeting, '', texts.body, '', url, '', texts.expiry, texts.ignore, '', '— Caseroom'].join(
    '\n',
  );
  const link = escapeHtml(url);
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1d2433">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(texts.body)}</p>
<p><a href="${link}" style="display:inline-block;padding:10px 18px;background:#2f5bd3;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(texts.action)}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(texts.expiry)}<br>${escapeHtml(texts.ignore)}</p>
<p style="font-size:12px;color:#777;word-break:break-all">${link}</p>
</body></html>`;
  return { to: to.email, subject: texts.subject, text, html };
}
