import {
  DeleteMessageQuery,
  SendReactionRequest,
  PartialUpdateRequest,
  ReactionsQuery,
  RepliesQuery,
  UpdateMessageRequest,
} from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { MessagePagination } from '@caseroom/protocol';
import { deleteMessage, updateMessage } from '../actions/message-edit.js';
import { pageReactions } from '../actions/reaction-query.js';
import { deleteReaction, sendReaction } from '../actions/reactions.js';
import type { ChatContext } from '../context.js';
import { listReplies, presentRow, visibleMessageForActor } from '../views/messages.js';
import { actorOf, parse } from './pipeline.js';

type IdParams = { Params: { id: string } };

/** Message routes (chat-spec §7 Messages). */
export function messageRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.get<IdParams>('/messages/:id', async (req) => {
    const actor = actorOf(req);
    const { row } = await visibleMessageForActor(ctx.db, actor, req.params.id);
    return { message: await presentRow(ctx.db, row, actor.kind === 'user' ? actor.userId : undefined) };
  });

  http.post<IdParams>('/messages/:id', async (req) => {
    const { message } = parse(UpdateMessageRequest, req.body);
    return { message: await updateMessage(ctx, actorOf(req), req.params.id, message, [], true) };
  });

  http.put<IdParams>('/messages/:id', async (req) => {
    const body = parse(PartialUpdateRequest, req.body);
    const message = await updateMessage(
      ctx,
      actorOf(req),
      req.params.id,
      body.set ?? {},
      body.unset ?? [],
      false,
    );
    return { message };
  });

  http.delete<IdParams>('/messages/:id', async (req) => {
    const query = parse(DeleteMessageQuery, req.query);
    const mode = query.delete_for_me ? 'for-me' : query.hard ? 'hard' : 'soft';
    return { message: await deleteMessage(ctx, actorOf(req), req.params.id, mode) };
  });

  http.get<IdParams>('/messages/:id/replies', async (req) => {
    const { sort, ...page } = parse(RepliesQuery, req.query);
    const pagination = parse(MessagePagination, page);
    const descending = sort !== undefined && /-1|desc/i.test(sort);
    return { messages: await listReplies(ctx.db, actorOf(req), req.params.id, pagination, descending) };
  });

  http.post<IdParams>('/messages/:id/reaction', async (req) => {
    const body = parse(SendReactionRequest, req.body);
    return sendReaction(ctx, actorOf(req), req.params.id, body);
  });

  http.delete<{ Params: { id: string; type: string } }>('/messages/:id/reaction/:type', async (req) => {
    return deleteReaction(ctx, actorOf(req), req.params.id, req.params.type);
  });

  http.get<IdParams>('/messages/:id/reactions', async (req) => {
    const q = parse(ReactionsQuery, req.query);
    return pageReactions(ctx, actorOf(req), req.params.id, {
      type: q.type,
      limit: q.limit ?? 300,
      offset: q.offset,
      next: q.next,
    });
  });
}
