import { SetupData, type SetupStatus } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { installProductErrorHandler } from '../http/error-handler.js';
import { PUBLIC_LIMITS, publicLimit } from '../http/public-limits.js';
import { runSetup, type SetupDeps } from './setup.js';
import { setupNeeded } from './state.js';

/**
 * `GET /api/setup` (is the first run still due?) and `POST /api/setup` (do it), both public: before setup
 * there is nobody to authenticate. After the first account exists, POST answers 409 and writes nothing.
 */
export async function setupRoutes(http: FastifyInstance, deps: SetupDeps): Promise<void> {
  installProductErrorHandler(http);
  const limit = publicLimit(PUBLIC_LIMITS.setup.points, PUBLIC_LIMITS.setup.seconds);

  http.get('/api/setup', async (): Promise<SetupStatus> => ({ needed: await setupNeeded(deps.db) }));

  http.post('/api/setup', async (req, reply) => {
    await limit.consume(req.ip);
    const data = SetupData.parse(req.body);
    const { result, headers } = await runSetup(deps, data, req.ip);
    const cookies = headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    const token = headers.get('set-auth-token');
    if (token) reply.header('set-auth-token', token);
    return result;
  });
}
