import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../platform/db.js';
import { ProductError } from '../errors.js';
import { installProductErrorHandler } from '../http/error-handler.js';

/**
 * `POST /api/password-reset/verify` `{token}` -> `{email}`: "verify the reset code" (product-spec §7) before
 * the user types a new password, without using the code up. An unknown, used or expired code answers 400.
 */
export async function resetRoutes(http: FastifyInstance, opts: { db: Db }): Promise<void> {
  installProductErrorHandler(http);
  http.post('/api/password-reset/verify', async (req) => {
    const { token } = z.object({ token: z.string().min(1).max(200) }).parse(req.body);
    const { rows } = await opts.db.query<{ email: string }>(
      `SELECT u.email FROM verification v JOIN "user" u ON u.id = v.value
        WHERE v.identifier = $1 AND v."expiresAt" > now()`,
      [`reset-password:${token}`],
    );
    const email = rows[0]?.email;
    if (!email) throw new ProductError('invalid-argument', 'The reset link is invalid or has expired');
    return { email };
  });
}
