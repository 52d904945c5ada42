import { PartialUpdateRequest } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { QueryChannelRequest, QueryChannelsRequest, SendMessageRequest } from '@caseroom/protocol';
import { updateChannelPartial } from '../actions/channel-update.js';
import { checkChannelRef } from '../actions/channel-create.js';
import { queryChannel, queryChannels } from '../actions/channels.js';
import { sendMessage } from '../actions/message-send.js';
import type { ChatContext } from '../context.js';
import { actorOf, parse, type ChannelParams } from './pipeline.js';

/** Channel routes (chat-spec §7 Channels). */
export function channelRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.post('/channels', async (req) => {
    const body = parse(QueryChannelsRequest, req.body);
    return { channels: await queryChannels(ctx, actorOf(req), body) };
  });

  http.post<{ Params: ChannelParams }>('/channels/:type/:id/query', async (req) => {
    const body = parse(QueryChannelRequest, req.body);
    return queryChannel(ctx, actorOf(req), req.params.type, req.params.id, body);
  });

  http.post<{ Params: { type: string } }>('/channels/:type/query', async (req) => {
    const body = parse(QueryChannelRequest, req.body);
    return queryChannel(ctx, actorOf(req), req.params.type, undefined, body);
  });

  http.post<{ Params: ChannelParams }>('/channels/:type/:id/message', async (req) => {
    checkChannelRef(req.params.type, req.params.id);
    const body = parse(SendMessageRequest, req.body);
    const cid = `${req.params.type}:${req.params.id}`;
    const options = { skipEnrichUrl: body.skip_enrich_url };
    return { message: await sendMessage(ctx, actorOf(req), cid, body.message, undefined, options) };
  });

  http.patch<{ Params: ChannelParams }>('/channels/:type/:id', async (req) => {
    checkChannelRef(req.params.type, req.params.id);
    const body = parse(PartialUpdateRequest, req.body);
    const cid = `${req.params.type}:${req.params.id}`;
    const channel = await updateChannelPartial(ctx, actorOf(req), cid, body.set ?? {}, body.unset ?? []);
    return { channel };
  });
}
