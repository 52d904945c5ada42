import { findUnsafeInput, pathText } from '@caseroom/protocol';
import type { FastifyRequest } from 'fastify';

/**
 * The first value of a request PostgreSQL would refuse (NUL, an unpaired surrogate) or nested absurdly deep, in its
 * path parameters, query string or parsed JSON body, as `where: problem` (`message.text: must not contain ...`);
 * undefined when the request is clean. Both APIs run it on every request before any handler, so no route can pass
 * such a value on to the database (a raw body, such as better-auth's, is a Buffer and not looked into).
 */
export function unsafeRequestInput(req: FastifyRequest, body: unknown = req.body): string | undefined {
  const parts: Array<[string, unknown]> = [
    ['path parameter', req.params],
    ['query parameter', req.query],
    ['', body],
  ];
  for (const [where, value] of parts) {
    if (value === undefined || Buffer.isBuffer(value)) continue;
    const problem = findUnsafeInput(value);
    if (!problem) continue;
    const field = pathText(problem.path);
    return `${where ? `${where} ${field}` : field}: ${problem.message}`;
  }
  return undefined;
}

/** A raw (Buffer) body read as JSON or a form, for routes that keep bodies raw; undefined when it is neither. */
export function rawBodyValue(req: FastifyRequest): unknown {
  if (!Buffer.isBuffer(req.body)) return undefined;
  const type = String(req.headers['content-type'] ?? '');
  const text = req.body.toString('utf8');
  if (type.includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
