import {
  DeliveredRequest,
  FlagRequest,
  MessageIdsQuery,
  PinnedMessagesQuery,
  SearchRequest,
  UnreadBatchRequest,
} from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { checkChannelRef } from '../actions/channel-create.js';
import { flagMessage, getMessages, listPinned, undeleteMessage } from '../actions/message-moderation.js';
import { markDelivered } from '../actions/delivery.js';
import { searchMessages } from '../actions/search.js';
import { markAllRead, myUnread, unreadBatch } from '../actions/unread.js';
import type { ChatContext } from '../context.js';
import { actorOf, parse, parsePayload, type ChannelParams } from './pipeline.js';

/** Flag, undelete, get many, pinned messages, delivery reports and unread counts (chat-spec §7 Messages, Users). */
export function messageExtraRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.post('/moderation/flag', async (req) => {
    const body = parse(FlagRequest, req.body);
    return flagMessage(ctx, actorOf(req), body.target_message_id, body.reason);
  });

  http.post<{ Params: { id: string } }>('/messages/:id/undelete', async (req) => ({
    message: await undeleteMessage(ctx, actorOf(req), req.params.id),
  }));

  http.get<{ Params: ChannelParams }>('/channels/:type/:id/messages', async (req) => {
    checkChannelRef(req.params.type, req.params.id);
    const ids = parse(MessageIdsQuery, req.query).ids.split(',').filter(Boolean);
    return { messages: await getMessages(ctx, actorOf(req), `${req.params.type}:${req.params.id}`, ids) };
  });

  http.get<{ Params: ChannelParams }>('/channels/:type/:id/pinned_messages', async (req) => {
    checkChannelRef(req.params.type, req.params.id);
    const q = parse(PinnedMessagesQuery, req.query);
    const cid = `${req.params.type}:${req.params.id}`;
    return { messages: await listPinned(ctx, actorOf(req), cid, q.limit ?? 25, q.offset ?? 0) };
  });

  http.get<{ Querystring: { payload?: string } }>('/search', async (req) => {
    return searchMessages(ctx, actorOf(req), parsePayload(SearchRequest, req.query.payload));
  });

  http.get('/unread', async (req) => myUnread(ctx, actorOf(req)));
  http.post('/unread_batch', async (req) =>
    unreadBatch(ctx, actorOf(req), parse(UnreadBatchRequest, req.body).user_ids),
  );
  http.post('/channels/read', async (req) => markAllRead(ctx, actorOf(req)));
  http.post('/channels/delivered', async (req) =>
    markDelivered(ctx, actorOf(req), parse(DeliveredRequest, req.body).latest_delivered_messages),
  );
}
