import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** The CSP source of each inline `<script>` of the web app's index.html (the build's route preloader). */
export function inlineScriptHashes(webDist: string | undefined): string[] {
  const file = webDist ? path.join(webDist, 'index.html') : undefined;
  if (!file || !fs.existsSync(file)) return [];
  const html = fs.readFileSync(file, 'utf8');
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    (m) =>
      `'sha256-${crypto
        .createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}'`,
  );
}

/**
 * The Content-Security-Policy of every answer. Scripts only from this origin (plus index.html's own inline
 * script, by hash); no plugins, no framing, no forms or `<base>` elsewhere; images, audio and video from us (chat
 * files, avatars), `data:` and `blob:` (chat images are fetched with the token and shown as object URLs, composer
 * previews; nothing from other origins, so a message cannot make browsers call out); fetches and WebSockets to us
 * only. Inline `<style>` elements are allowed because
 * the emoji picker (emoji-mart) puts its stylesheet in its shadow root; style attributes are not.
 */
export function contentSecurityPolicy(
  scriptHashes: string[],
  https: boolean,
): Record<string, string[] | null> {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'connect-src': ["'self'"],
    'font-src': ["'self'", 'data:'],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'media-src': ["'self'", 'data:', 'blob:'],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...scriptHashes],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'style-src-elem': ["'self'", "'unsafe-inline'"],
    'worker-src': ["'self'", 'blob:'],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * Security headers on every answer (@fastify/helmet): the CSP above, `X-Frame-Options: DENY`, nosniff,
 * `Referrer-Policy: same-origin` (links in mails carry tokens in their query; other sites never see our URLs,
 * while same-origin requests keep their Origin header, which the CSRF checks need), cross-origin isolation of
 * windows and resources, and HSTS only when PUBLIC_URL is https (over plain http browsers ignore it anyway, and a
 * development server on localhost must not pin https for that host).
 */
export async function registerSecurityHeaders(
  http: FastifyInstance,
  opts: { publicUrl: string; webDist: string | undefined },
): Promise<void> {
  const https = opts.publicUrl.startsWith('https:');
  await http.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: contentSecurityPolicy(inlineScriptHashes(opts.webDist), https),
    },
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}
