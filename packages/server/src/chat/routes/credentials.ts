import type { FastifyRequest } from 'fastify';
import type { Credentials } from '../auth.js';

function first(v: unknown): string | undefined {
  if (Array.isArray(v)) return first(v[0]);
  return typeof v === 'string' ? v : undefined;
}

/** Credentials from headers (`Authorization`, `Auth-Type`) or, for sockets, the query string. */
export function credentialsOf(req: FastifyRequest): Credentials {
  const query = (req.query ?? {}) as Record<string, unknown>;
  return {
    apiKey: first(query.api_key) ?? first(req.headers['x-api-key']),
    token: first(req.headers.authorization) ?? first(query.authorization),
    authType: first(req.headers['auth-type']) ?? first(query.auth_type),
    userId: first(query.user_id),
  };
}

/** The connection id a request names (query `connection_id`), for watching channels. */
export function connectionIdOf(req: FastifyRequest): string | undefined {
  return first(((req.query ?? {}) as Record<string, unknown>).connection_id);
}
