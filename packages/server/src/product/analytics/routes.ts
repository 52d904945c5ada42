import { AnalyticsQuery, ChatOpenedRequest, type ChatOpenedResponse } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { ChatServerApi } from '../../chat/server-api.js';
import type { Db } from '../../platform/db.js';
import { authorizeOrganization } from '../callables/authorize.js';
import { ProductError } from '../errors.js';
import type { Authenticate } from '../http/authenticate.js';
import { installProductErrorHandler } from '../http/error-handler.js';
import type { Analytics } from './recorder.js';
import { readAnalyticsReport } from './report.js';

export interface AnalyticsRoutesOptions {
  db: Db;
  authenticate: Authenticate;
  chat: ChatServerApi;
  analytics: Analytics;
  /** "Chat opened" reports per user per minute (default 120: a person flicking through chats stays well under). */
  chatOpenedPerMinute?: number;
}

const IdParams = z.object({ id: z.string().min(1) });

/**
 * `POST /api/analytics/chat-opened` (the web reports an opened chat) and `GET /api/organizations/{id}/analytics`
 * (the weekly page of the organization admins).
 */
export async function analyticsRoutes(http: FastifyInstance, opts: AnalyticsRoutesOptions): Promise<void> {
  const { db, authenticate, chat, analytics } = opts;
  installProductErrorHandler(http);
  // Per node, in memory: the limit keeps one client from filling the table, it is not a quota.
  const limiter = new RateLimiterMemory({ points: opts.chatOpenedPerMinute ?? 120, duration: 60 });

  http.post('/api/analytics/chat-opened', async (req): Promise<ChatOpenedResponse> => {
    const { uid } = await authenticate(req);
    const { cid } = ChatOpenedRequest.parse(req.body);
    try {
      await limiter.consume(uid);
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        throw new ProductError('resource-exhausted', 'Too many chat-opened reports, try again later');
      }
      throw err;
    }
    // Chat's one read rule decides; a chat the user cannot read is "not found" (its existence is not told).
    const channel = await chat.readableChannel(cid, uid);
    if (!channel) throw new ProductError('not-found', 'Chat not found');
    return { recorded: await analytics.chatOpened(channel, uid) };
  });

  http.get('/api/organizations/:id/analytics', async (req) => {
    const { uid } = await authenticate(req);
    const { id } = IdParams.parse(req.params);
    const { weeks } = AnalyticsQuery.parse(req.query);
    return db.tx(async (q) => {
      await authorizeOrganization(q, uid, 'organizations.analytics', id);
      return readAnalyticsReport(q, id, weeks);
    });
  });

  http.addHook('onClose', async () => {
    await analytics.close();
  });
}
