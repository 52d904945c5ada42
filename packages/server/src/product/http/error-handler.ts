import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { ProductError, statusForHttp } from '../errors.js';

/**
 * Answers every failure of a product route in the callable error shape
 * `{"error": {"status", "message", "toast"?}}` with the matching HTTP status. Unexpected errors are
 * logged and answered as `internal` without details.
 */
export function installProductErrorHandler(http: FastifyInstance): void {
  http.setErrorHandler((err: FastifyError | Error, req, reply) => {
    if (err instanceof ProductError) return reply.code(err.httpStatus).send(err.toBody());
    if (err instanceof ZodError) {
      const issue = err.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      return reply
        .code(400)
        .send(new ProductError('invalid-argument', `${where}${issue?.message ?? 'Invalid input'}`).toBody());
    }
    const code = (err as FastifyError).statusCode;
    if (code && code >= 400 && code < 500) {
      return reply.code(code).send({ error: { status: statusForHttp(code), message: err.message } });
    }
    req.log.error({ err }, 'product request failed');
    return reply.code(500).send(new ProductError('internal', 'Internal error').toBody());
  });
}
