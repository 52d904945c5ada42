import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth.js';
import type { Actor, ChatContext } from '../context.js';
import { notAllowed } from '../errors.js';
import { endpointOf, RateLimitError, type LimitState } from '../limits/rate-limits.js';
import { connectionIdOf, credentialsOf } from './credentials.js';

/** What an anonymous visitor may call: reading only (they are a member of nothing, so they see nothing private). */
const ANONYMOUS_ALLOWED = new Set([
  'GET /chat/hi',
  'GET /chat/longpoll',
  'GET /chat/channeltypes',
  'POST /chat/channels',
  'GET /chat/users',
  'GET /chat/rate_limits',
  // The upload configuration: clients check files against it before uploading (chat-spec §5).
  'GET /chat/app',
]);

/** Routes that authenticate themselves: the socket answers with an error frame, guests only need the api key. */
const SELF_AUTHENTICATED = new Set(['/chat/connect', '/chat/guest']);

export function setLimitHeaders(reply: FastifyReply, state: LimitState): void {
  reply.header('X-RateLimit-Limit', String(state.limit));
  reply.header('X-RateLimit-Remaining', String(state.remaining));
  reply.header('X-RateLimit-Reset', String(state.reset));
}

/** The rate-limit key of a caller: the user, or the address for guests and anonymous visitors. */
export function limitKey(req: FastifyRequest, actor: Actor | null): string {
  if (actor?.kind === 'user' && !actor.anonymous) return `user:${actor.userId}`;
  return `ip:${req.ip}`;
}

/**
 * The chat plugin's `onRequest` gate: authenticates (code 2/3/40-43), keeps anonymous visitors read-only, and
 * counts the request against the caller's per-endpoint rate limit (code 9, HTTP 429; the server is not limited).
 */
export async function gate(ctx: ChatContext, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const url = req.routeOptions.url ?? req.url;
  let actor: Actor | null = null;
  if (!SELF_AUTHENTICATED.has(url)) {
    actor = await authenticate(ctx.config, credentialsOf(req), ctx.realtime.revokedBefore);
    if (actor.kind === 'user' && actor.anonymous && !ANONYMOUS_ALLOWED.has(`${req.method} ${url}`)) {
      throw notAllowed('anonymous connections are read-only');
    }
    if (actor.kind === 'user' && ctx.realtime.inactive.has(actor.userId)) {
      throw notAllowed(`User "${actor.userId}" is deactivated or deleted`);
    }
    const connectionId = connectionIdOf(req);
    req.chatActor = actor.kind === 'user' && connectionId ? { ...actor, connectionId } : actor;
  }
  if (actor?.kind === 'server' || url === '/chat/connect' || !ctx.rateLimits.enabled) return;
  try {
    setLimitHeaders(reply, await ctx.rateLimits.consume(limitKey(req, actor), endpointOf(req.method, url)));
  } catch (err) {
    if (err instanceof RateLimitError) setLimitHeaders(reply, err.state);
    throw err;
  }
}
