import type { PublicConfig } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ChatServerApi } from '../../chat/server-api.js';
import type { Platform } from '../../platform/context.js';
import { readCaseplanOverview } from '../caseplans/overview.js';
import { listCaseplans, readCaseplan } from '../caseplans/reads.js';
import type { CallableRegistry } from '../callables/registry.js';
import { runCallable } from '../callables/run.js';
import { unauthenticated } from '../errors.js';
import { listOrganizations } from '../organizations/reads.js';
import { ensureProfile, loadAccount } from '../users/profiles.js';
import { presentMe } from '../users/presenters.js';
import type { Authenticate } from './authenticate.js';
import { domainRoutes } from './domain-routes.js';
import { installProductErrorHandler } from './error-handler.js';

export interface ProductRoutesOptions {
  platform: Platform;
  authenticate: Authenticate;
  callables: CallableRegistry;
  /** Chat's server API: callables bind it to their transaction. */
  chat: ChatServerApi;
}

const CaseplansQuery = z.object({ organization: z.string().min(1).optional() });
const IdParams = z.object({ id: z.string().min(1) });
const NameParams = z.object({ name: z.string().min(1) });

/** The product API under `/api` (except `/api/auth`): config, me, reads and callables. */
export async function productRoutes(http: FastifyInstance, opts: ProductRoutesOptions): Promise<void> {
  const { platform, authenticate, callables, chat } = opts;
  const { db, config } = platform;
  installProductErrorHandler(http);

  http.get('/api/config', async (): Promise<PublicConfig> => {
    const authProviders = Object.entries(config.oauth)
      .filter(([, provider]) => provider !== undefined)
      .map(([name]) => name);
    return { chatApiKey: config.chatApiKey, chatBaseUrl: '/chat', authProviders };
  });

  http.get('/api/me', async (req) => {
    const { uid } = await authenticate(req);
    await ensureProfile(db, uid);
    const account = await loadAccount(db, uid);
    if (!account) throw unauthenticated();
    return presentMe(account);
  });

  http.get('/api/organizations', async (req) => {
    const { uid } = await authenticate(req);
    return listOrganizations(db, uid);
  });

  http.get('/api/caseplans', async (req) => {
    const { uid } = await authenticate(req);
    const { organization } = CaseplansQuery.parse(req.query);
    return listCaseplans(db, uid, organization);
  });

  // The case-plan home: the same plans with what needs attention (a static path wins over `:id`).
  http.get('/api/caseplans/overview', async (req) => {
    const { uid } = await authenticate(req);
    const { organization } = CaseplansQuery.parse(req.query);
    return db.tx((q) => readCaseplanOverview(q, uid, organization));
  });

  http.get('/api/caseplans/:id', async (req) => {
    const { uid } = await authenticate(req);
    const { id } = IdParams.parse(req.params);
    return readCaseplan(db, uid, id);
  });

  http.post('/api/functions/:name', async (req) => {
    const caller = await authenticate(req);
    const { name } = NameParams.parse(req.params);
    return { result: await runCallable(callables, db, chat, name, caller, req.body) };
  });

  domainRoutes(http, db, authenticate);
}
