import { findUnsafeInput, pathText } from '@caseroom/protocol';
import type { FastifyRequest } from 'fastify';

/**
 * The first value of a request PostgreSQL would refuse (NUL, an unpaired surrogate) or nested absurdly deep, in its
 * path parameters, query string or parsed JSON body, as `where: problem` (`message.text: must not contain ...`);
 * undefined when the request is clean. Both APIs run it on every request before any handler, so no route can pass
 * such a value on to the database (a raw body, such as better-auth's, is a Buffer and not looked into).
 */
export function unsafeRequestInput(req: FastifyRequest): string | undefined {
  const parts: Array<[string, unknown]> = [
    ['path parameter', req.params],
    ['query parameter', req.query],
    ['', req.body],
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
