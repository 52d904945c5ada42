import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rawBodyValue, unsafeRequestInput } from '../../platform/safe-input.js';
import { CLIENT_IP_HEADER, type Auth } from '../auth/auth.js';

/**
 * The Fetch `Request` better-auth expects, built from a fastify request whose body is kept raw.
 *
 * Browsers send the Fetch Metadata headers together (`Sec-Fetch-Site` on every request). Non-browser clients
 * such as Node's fetch send a lone `Sec-Fetch-Mode: cors`, which better-auth would read as a browser request
 * without an Origin and refuse. Without `Sec-Fetch-Site` the metadata is dropped: browser requests keep the
 * full origin and CSRF checks, API clients (no cookies, no Origin) are served.
 */
export function toFetchRequest(req: FastifyRequest): Request {
  const url = `${req.protocol}://${req.host}${req.url}`;
  const headers = new Headers();
  const fromBrowser = req.headers['sec-fetch-site'] !== undefined;
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (!fromBrowser && name.startsWith('sec-fetch-')) continue;
    if (name === CLIENT_IP_HEADER) continue; // only ever the address fastify resolved (below)
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, String(value));
  }
  // The per-IP rate limits key on this (fastify's `req.ip`, which honours the proxy setting).
  headers.set(CLIENT_IP_HEADER, req.ip);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined;
  return new Request(url, {
    method: req.method,
    headers,
    ...(hasBody ? { body: new Uint8Array(req.body as Buffer) } : {}),
  });
}

/** Copies status, headers (every `set-cookie` separately) and body of a Fetch `Response` to the reply. */
export async function sendFetchResponse(res: Response, reply: FastifyReply): Promise<FastifyReply> {
  reply.code(res.status);
  res.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value);
  });
  const cookies = res.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  const body = Buffer.from(await res.arrayBuffer());
  return reply.send(body.length > 0 ? body : undefined);
}

/**
 * Mounts better-auth at `/api/auth/*`. Registered as its own plugin so that bodies stay raw (better-auth
 * parses them itself) and better-auth answers its own errors.
 */
export async function authRoutes(http: FastifyInstance, opts: { auth: Auth }): Promise<void> {
  http.removeAllContentTypeParsers();
  http.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  // Text PostgreSQL refuses (NUL, unpaired surrogates) in an e-mail, a name or a token would reach better-auth's
  // queries and answer 500: refused first, in better-auth's error shape.
  http.addHook('preHandler', async (req, reply) => {
    const problem = unsafeRequestInput(req, rawBodyValue(req));
    if (problem) return reply.code(400).send({ code: 'INVALID_INPUT', message: problem });
  });
  http.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    handler: async (req, reply) => sendFetchResponse(await opts.auth.handler(toFetchRequest(req)), reply),
  });
}
