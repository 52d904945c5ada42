import { MessageHistoryRequest, QueryReactionsRequest } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { queryMessageHistory } from '../actions/message-history.js';
import { pageReactions, reactionQueryOptions } from '../actions/reaction-query.js';
import type { ChatContext } from '../context.js';
import { actorOf, parse } from './pipeline.js';

/** Keyset-paged queries about one message: edit history and reactions (chat-spec §7 Messages). */
export function messageQueryRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.post('/messages/history', async (req) =>
    queryMessageHistory(ctx, actorOf(req), parse(MessageHistoryRequest, req.body)),
  );

  http.post<{ Params: { id: string } }>('/messages/:id/reactions', async (req) => {
    const body = parse(QueryReactionsRequest, req.body);
    return pageReactions(ctx, actorOf(req), req.params.id, reactionQueryOptions(body));
  });
}
