import type { FastifyInstance } from 'fastify';
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

/**
 * `GET /dev/mail` (a page) and `GET /dev/mail.json` (newest first): the dev outbox. Registered only without
 * SMTP and outside production mode; otherwise these paths are 404 like any unknown route.
 */
export async function devMailRoutes(http: FastifyInstance, opts: { mailer: Mailer }): Promise<void> {
  http.get('/dev/mail.json', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return opts.mailer.outbox();
  });
  http.get('/dev/mail', async (_req, reply) =>
    reply
      .type('text/html')
      .header('cache-control', 'no-store')
      .send(page(await opts.mailer.outbox())),
  );
}
