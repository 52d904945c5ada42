import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { QueryThreadsRequest } from '@caseroom/protocol';
import { getThread, queryThreads, updateThread } from '../actions/threads.js';
import type { ChatContext } from '../context.js';
import { actorOf, parse } from './pipeline.js';

type IdParams = { Params: { id: string } };
const GetThreadQuery = z.looseObject({
  participant_limit: z.coerce.number().int().min(0).max(100).optional(),
  reply_limit: z.coerce.number().int().min(0).max(100).optional(),
  watch: z.enum(['true', 'false', '1', '0']).optional(),
});
const PartialUpdate = z.object({
  set: z.record(z.string(), z.unknown()).optional(),
  unset: z.array(z.string()).optional(),
});

/** Threads (chat-spec §7 Threads). */
export function threadRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.post('/threads', async (req) => queryThreads(ctx, actorOf(req), parse(QueryThreadsRequest, req.body)));

  http.get<IdParams>('/threads/:id', async (req) => {
    const q = parse(GetThreadQuery, req.query);
    const watch = q.watch === 'true' || q.watch === '1';
    const thread = await getThread(ctx, actorOf(req), req.params.id, {
      ...(q.participant_limit !== undefined ? { participant_limit: q.participant_limit } : {}),
      ...(q.reply_limit !== undefined ? { reply_limit: q.reply_limit } : {}),
      watch,
    });
    return { thread };
  });

  http.patch<IdParams>('/threads/:id', async (req) => {
    const body = parse(PartialUpdate, req.body);
    return { thread: await updateThread(ctx, actorOf(req), req.params.id, body.set ?? {}, body.unset ?? []) };
  });
}
