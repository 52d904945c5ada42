import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import type { Platform } from './platform/context.js';
import { healthRoutes } from './platform/health.js';
import { registerSecurityHeaders } from './platform/security-headers.js';
import { registerChat, type ChatModule } from './chat/index.js';
import { registerProduct, type ProductModule } from './product/index.js';

export interface App {
  http: FastifyInstance;
  chat: ChatModule;
  product: ProductModule;
  /** Marks the node as draining (SIGTERM): `/readyz` answers 503 from then on. */
  drain(): void;
}

const WEB_DIST_DEFAULT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Builds the HTTP server with every module on the given platform; does not listen. */
export async function buildApp(platform: Platform): Promise<App> {
  const http = Fastify({
    loggerInstance: platform.log as FastifyBaseLogger,
    bodyLimit: 1024 * 1024,
    trustProxy: fastifyTrustProxy(platform.config.trustProxy),
    // Errors the router raises before any route (a path parameter too long, a malformed URL): under /chat they are
    // chat errors like every other (chat-spec §8 body, code 4), elsewhere Fastify's usual body.
    frameworkErrors: (err, req, reply: FastifyReply) => {
      const status = err.statusCode ?? 400;
      if (req.url.startsWith('/chat/')) {
        return reply.code(status).send({ code: 4, message: err.message, StatusCode: status });
      }
      return reply
        .code(status)
        .send({ error: err.name, code: err.code, message: err.message, statusCode: status });
    },
  });
  const webDist = platform.config.webDist ?? WEB_DIST_DEFAULT;
  // Security headers (CSP, frame-ancestors, nosniff, Referrer-Policy, HSTS over https) on every answer.
  await registerSecurityHeaders(http, { publicUrl: platform.config.publicUrl, webDist });
  await http.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });

  // `/healthz` (liveness: the process and its database) and `/readyz` (each dependency, draining).
  const health = healthRoutes(http, platform);

  if (fs.existsSync(path.join(webDist, 'index.html'))) {
    await http.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      // The web build writes `.br` and `.gz` next to each compressible file; they go to clients that accept them.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) => reply.header('cache-control', cacheControlFor(webDist, file)),
    });
    // Client-side routes (`/`, `/app/...`, `/_action`) all load the single-page app.
    http.setNotFoundHandler((req, reply) => {
      const url = req.url.split('?')[0] ?? '';
      if (req.method === 'GET' && !/^\/(api|chat|dev)(\/|$)/.test(url) && !path.extname(url)) {
        return reply.sendFile('index.html');
      }
      return notFound(url, reply);
    });
  } else {
    http.setNotFoundHandler((req, reply) => notFound(req.url.split('?')[0] ?? '', reply));
  }

  // API answers (chat and product) of 1 KB and more go compressed to clients that accept it: a channel's state with
  // its members is tens of KB, most of the wait on a phone's network. Brotli at quality 4 and gzip at level 6 cost
  // little CPU per answer. Registered after the web build's routes, which keep their precompressed files.
  await http.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });

  const chat = await registerChat(http, platform);
  const product = await registerProduct(http, platform, chat);

  return { http, chat, product, drain: health.drain };
}

/**
 * Vite's `/assets/*` have a content hash in their names, so browsers keep them for a year without asking again;
 * everything else (index.html above all, which names the current assets) is revalidated on every load.
 */
function cacheControlFor(webDist: string, file: string): string {
  const relative = path.relative(webDist, file).split(path.sep);
  return relative.length > 1 && relative[0] === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** Fastify takes a hop count as a function of the hop; the rest as is. */
function fastifyTrustProxy(trust: Platform['config']['trustProxy']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

function notFound(url: string, reply: FastifyReply) {
  if (url.startsWith('/chat')) {
    return reply.code(404).send({ code: 16, message: `Route not found: ${url}`, StatusCode: 404 });
  }
  return reply.code(404).send({ error: { status: 'not-found', message: `Route not found: ${url}` } });
}
