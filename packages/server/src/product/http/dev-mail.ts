import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Mailer, OutboxMail } from '../../platform/mail.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(mails: OutboxMail[]): string {
  const items = mails
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <b>${escapeHtml(m.to)}</b> · ${escapeHtml(m.date)}</p>
  <pre>${escapeHtml(m.text).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')}</pre>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev outbox · Caseroom</title>
<style>body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}
article{border:1px solid #ccd;border-radius:8px;padding:0 1rem;margin:1rem 0}.meta{color:#555}
pre{white-space:pre-wrap;word-break:break-all}</style></head>
<body><main><h1>Dev outbox</h1><p>Mail the server would have sent (no SMTP_URL). Newest first.</p>
${items || '<p>No mail yet.</p>'}</main></body></html>`;
}

const DEV_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const LOOPBACK_PEER = /^(::1|(::ffff:)?127\.\d+\.\d+\.\d+)$/;
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;
const FORWARDING_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'forwarded', 'x-real-ip'];

/**
 * Whether a request comes from this very machine and not through a proxy: the socket's peer is a loopback
 * address (never X-Forwarded-For, which the client writes), no forwarding header is present (a reverse proxy on
 * the same machine connects from loopback too, for every visitor), and the Host names this machine or
 * PUBLIC_URL's host (a page of another site rebound to 127.0.0.1 by DNS sends its own name).
 */
export function isLocalRequest(req: FastifyRequest, publicUrl: string): boolean {
  if (!LOOPBACK_PEER.test(req.socket.remoteAddress ?? '')) return false;
  if (FORWARDING_HEADERS.some((h) => req.headers[h] !== undefined)) return false;
  const host = (req.headers.host ?? '').toLowerCase();
  return LOOPBACK_HOST.test(host) || host === new URL(publicUrl).host.toLowerCase();
}

/**
 * `GET /dev/mail` (a page) and `GET /dev/mail.json` (newest first): the dev outbox, which holds sign-in links.
 * Registered only without SMTP and outside production mode, and answers only requests from this machine
 * ({@link isLocalRequest}); otherwise these paths are 404 like any unknown route.
 */
export async function devMailRoutes(
  http: FastifyInstance,
  opts: { mailer: Mailer; publicUrl: string },
): Promise<void> {
  http.addHook('onRequest', async (req, reply) => {
    if (isLocalRequest(req, opts.publicUrl)) return;
    const path = req.url.split('?')[0] ?? '';
    return reply.code(404).send({ error: { status: 'not-found', message: `Route not found: ${path}` } });
  });
  http.get('/dev/mail.json', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return opts.mailer.outbox();
  });
  http.get('/dev/mail', async (_req, reply) =>
    reply
      .type('text/html')
      .header('cache-control', 'no-store')
      // The page's own inline stylesheet, nothing else (no scripts at all).
      .header('content-security-policy', DEV_PAGE_CSP)
      .send(page(await opts.mailer.outbox())),
  );
}
