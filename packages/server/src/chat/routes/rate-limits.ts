import { RateLimitsQuery } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import type { ChatContext } from '../context.js';
import { limitKey } from './gate.js';
import { parse } from './pipeline.js';

/** `GET /chat/rate_limits`: the caller's limit, remaining requests and reset time per endpoint. */
export function rateLimitRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.get('/rate_limits', async (req) => {
    const q = parse(RateLimitsQuery, req.query);
    const endpoints = q.endpoints ? q.endpoints.split(',').filter(Boolean) : ctx.rateLimits.endpoints();
    const states = await ctx.rateLimits.states(limitKey(req, req.chatActor), endpoints);
    return { web: states, server_side: states };
  });
}
