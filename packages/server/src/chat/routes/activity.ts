import { ChannelEventRequest, HideRequest, ReadRequest, UnreadRequest } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { SyncRequest } from '@caseroom/protocol';
import { sendChannelEvent } from '../actions/channel-events.js';
import { deleteChannel, setHidden, stopWatching, truncateChannel } from '../actions/channel-lifecycle.js';
import { markRead, markUnread } from '../actions/read-state.js';
import { syncEvents } from '../actions/sync.js';
import { markThreadRead } from '../actions/threads.js';
import { checkChannelRef } from '../actions/channel-create.js';
import type { ChatContext } from '../context.js';
import { actorOf, parse, type ChannelParams } from './pipeline.js';

/** Read state, typing and custom events, and recovery (chat-spec §7 Channels, POST /sync). */
export function activityRoutes(http: FastifyInstance, ctx: ChatContext): void {
  const cidOf = (p: ChannelParams) => {
    checkChannelRef(p.type, p.id);
    return `${p.type}:${p.id}`;
  };

  http.post<{ Params: ChannelParams }>('/channels/:type/:id/read', async (req) => {
    const body = parse(ReadRequest, req.body);
    if (body.thread_id) return markThreadRead(ctx, actorOf(req), cidOf(req.params), body.thread_id);
    return markRead(ctx, actorOf(req), cidOf(req.params), body.message_id);
  });

  http.post<{ Params: ChannelParams }>('/channels/:type/:id/unread', async (req) => {
    const body = parse(UnreadRequest, req.body);
    return markUnread(ctx, actorOf(req), cidOf(req.params), body.message_id);
  });

  http.post<{ Params: ChannelParams }>('/channels/:type/:id/event', async (req) => {
    const body = parse(ChannelEventRequest, req.body);
    return sendChannelEvent(ctx, actorOf(req), cidOf(req.params), body.event);
  });

  http.post<{ Params: ChannelParams }>('/channels/:type/:id/stop-watching', async (req) => {
    await stopWatching(ctx, actorOf(req), cidOf(req.params));
    return {};
  });

  http.post<{ Params: ChannelParams }>('/channels/:type/:id/hide', async (req) => {
    const body = parse(HideRequest, req.body);
    await setHidden(ctx, actorOf(req), cidOf(req.params), true, body.clear_history === true);
    return {};
  });

  http.post<{ Params: ChannelParams }>('/channels/:type/:id/show', async (req) => {
    await setHidden(ctx, actorOf(req), cidOf(req.params), false);
    return {};
  });

  http.post<{ Params: ChannelParams }>('/channels/:type/:id/truncate', async (req) => {
    return truncateChannel(ctx, actorOf(req), cidOf(req.params));
  });

  http.delete<{ Params: ChannelParams }>('/channels/:type/:id', async (req) => {
    return deleteChannel(ctx, actorOf(req), cidOf(req.params));
  });

  http.get('/hi', async () => ({}));

  http.post('/sync', async (req) => {
    const body = parse(SyncRequest, req.body);
    return syncEvents(ctx, actorOf(req), body);
  });
}
