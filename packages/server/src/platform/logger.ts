import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs (pino). Tokens and cookies never reach the log. */
export function createLogger(level: string): Logger {
  return pino({
    level,
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
  });
}
