import type { FastifyRequest } from 'fastify';
import type { Credentials } from '../auth.js';

function first(v: unknown): string | undefined {
  if (Array.isArray(v)) return first(v[0]);
  return typeof v === 'string' ? v : undefined;
}

/**
 * Routes whose chat token may ride in the query string (`authorization`): the WebSocket (browsers cannot set its
 * headers) and stored files (`<audio>`, `<video>` and `<img>` elements cannot either). Every other route takes it
 * from the `Authorization` header only, so tokens do not spread into URLs. Request logs never show query strings
 * (platform/logger `pathForLog`).
 */
const QUERY_TOKEN_ROUTES = new Set(['/chat/connect', '/chat/files/:id/:name', '/chat/files/:id/thumb']);

/** Credentials from headers (`Authorization`, `Auth-Type`) or the query string (the token: socket and files only). */
export function credentialsOf(req: FastifyRequest): Credentials {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const queryToken = QUERY_TOKEN_ROUTES.has(req.routeOptions.url ?? '')
    ? first(query.authorization)
    : undefined;
  return {
    apiKey: first(query.api_key) ?? first(req.headers['x-api-key']),
    token: first(req.headers.authorization) ?? queryToken,
    authType: first(req.headers['auth-type']) ?? first(query.auth_type),
    userId: first(query.user_id),
  };
}

/** The connection id a request names (query `connection_id`), for watching channels. */
export function connectionIdOf(req: FastifyRequest): string | undefined {
  return first(((req.query ?? {}) as Record<string, unknown>).connection_id);
}
