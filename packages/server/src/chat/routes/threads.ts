import { GetThreadQuery, PartialUpdateRequest } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { QueryThreadsRequest } from '@caseroom/protocol';
import { getThread, queryThreads, updateThread } from '../actions/threads.js';
import type { ChatContext } from '../context.js';
import { actorOf, parse } from './pipeline.js';

type IdParams = { Params: { id: string } };

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
    const body = parse(PartialUpdateRequest, req.body);
    return { thread: await updateThread(ctx, actorOf(req), req.params.id, body.set ?? {}, body.unset ?? []) };
  });
}
