import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { unsafeRequestInput } from '../../platform/safe-input.js';
import { ProductError, statusForHttp } from '../errors.js';

/**
 * Refuses text PostgreSQL cannot store (NUL, unpaired surrogates) and absurd nesting in the path, query and body
 * of every route of the plugin (`invalid-argument` naming the field), before any handler sees them; and answers
 * every failure of a product route in the callable error shape
 * `{"error": {"status", "message", "toast"?}}` with the matching HTTP status. Unexpected errors are
 * logged and answered as `internal` without details.
 */
export function installProductErrorHandler(http: FastifyInstance): void {
  http.addHook('preValidation', async (req) => {
    const problem = unsafeRequestInput(req);
    if (problem) throw new ProductError('invalid-argument', problem);
  });
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
