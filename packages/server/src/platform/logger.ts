import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** The parts of a Fastify request a log line shows (typed loosely: the platform does not import Fastify). */
interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * A request's path as logged: never its query string. Tokens travel there (`/chat/connect?authorization=<jwt>`,
 * `/_action?token=`, `/auth/reset?token=`, `/api/auth/magic-link/verify?token=`, `/api/auth/verify-email?token=`,
 * invite links), and so do search texts; none of it belongs in a log. better-auth's reset callback carries its
 * token in the path (`/api/auth/reset-password/<token>`), so that segment goes too.
 */
export function pathForLog(url: string | undefined): string {
  const path = (url ?? '').split('?')[0] ?? '';
  return path.replace(/^(\/api\/auth\/reset-password\/)[^/]+/, '$1[redacted]');
}

/** Fastify's request serializer, with the path of {@link pathForLog} and the client address Fastify resolved. */
function requestForLog(req: LoggedRequest) {
  return {
    method: req.method,
    url: pathForLog(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * Structured JSON logs (pino) to stdout, or to `destination` (tests read it). Tokens, cookies and query strings
 * never reach the log.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      serializers: { req: requestForLog },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.query.authorization',
          '*.password',
          '*.token',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
