import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One mail as the loopback SMTP server received it, decoded enough for a test to read. */
export interface CaughtMail {
  /** Envelope recipients. */
  to: string[];
  subject: string;
  /** The text/plain part, decoded. */
  text: string;
  /** The text/html part, decoded. */
  html: string;
  /** Every http(s) URL of the plain-text part, in order. */
  links: string[];
}

/** A real SMTP server on loopback that keeps every mail; the server under test gets `SMTP_URL=url`. */
export interface SmtpCatcher {
  url: string;
  mails: CaughtMail[];
  /**
   * Waits for the first mail to `to` that arrived after `since` mails had been received (the mail count when the
   * action began, see `count()`), matching `subject` when given.
   */
  waitFor(
    to: string,
    options?: { subject?: RegExp; since?: number; timeoutMs?: number },
  ): Promise<CaughtMail>;
  /** How many mails have arrived so far, to pass as `since`. */
  count(): number;
  close(): Promise<void>;
}

/** Decodes a MIME body by its Content-Transfer-Encoding (quoted-printable, base64, or as is). */
function decodeBody(body: string, encoding: string): string {
  const enc = encoding.toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc !== 'quoted-printable') return body;
  const bytes: number[] = [];
  const soft = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) in a header value. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QB])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
    );
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function parsePart(raw: string): Part {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** The leaf parts of a (possibly nested) multipart message. */
function leafParts(part: Part): Part[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [part];
  return part.body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .flatMap((chunk) => leafParts(parsePart(chunk.replace(/^\r?\n/, ''))));
}

/** Parses a raw RFC 5322 message into subject, plain text, HTML and the plain text's links. */
export function parseMail(to: string[], raw: string): CaughtMail {
  const message = parsePart(raw);
  let text = '';
  let html = '';
  for (const part of leafParts(message)) {
    const type = (part.headers.get('content-type') ?? 'text/plain').toLowerCase();
    const decoded = decodeBody(part.body, part.headers.get('content-transfer-encoding') ?? '7bit');
    if (type.startsWith('text/plain')) text += decoded;
    else if (type.startsWith('text/html')) html += decoded;
  }
  const links = [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
  return { to, subject: decodeHeader(message.headers.get('subject') ?? ''), text, html, links };
}

/** Starts the catcher on a free loopback port (no TLS, no AUTH: loopback only). */
export async function startSmtp(): Promise<SmtpCatcher> {
  const mails: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        mails.push(parseMail(to, Buffer.concat(chunks).toString('utf8')));
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  async function waitFor(
    to: string,
    { subject, since = 0, timeoutMs = 10_000 }: { subject?: RegExp; since?: number; timeoutMs?: number } = {},
  ): Promise<CaughtMail> {
    const address = to.toLowerCase();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = mails
        .slice(since)
        .find((m) => m.to.includes(address) && (!subject || subject.test(m.subject)));
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        const seen = mails.map((m) => `${m.to.join(',')}: ${m.subject}`).join('\n  ');
        throw new Error(`no mail to ${to}${subject ? ` with subject ${subject}` : ''}; received:\n  ${seen}`);
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        waiters.add(wake);
      });
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor,
    count: () => mails.length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The one link of `mail` whose path is `pathname` (e.g. `/_action`), as a URL. */
export function linkTo(mail: CaughtMail, pathname: string): URL {
  const link = mail.links.map((l) => new URL(l)).find((u) => u.pathname === pathname);
  if (!link) throw new Error(`no ${pathname} link in "${mail.subject}":\n${mail.text}`);
  return link;
}
