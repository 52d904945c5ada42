import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { QueryChannelRequest, QueryChannelsRequest, SendMessageRequest } from '@caseroom/protocol';
import { addMembers, removeMembers, updateChannelPartial } from '../actions/channel-update.js';
import { checkChannelRef } from '../actions/channel-create.js';
import { queryChannel, queryChannels } from '../actions/channels.js';
import { sendMessage } from '../actions/message-send.js';
import type { ChatContext } from '../context.js';
import { actorOf, parse, type ChannelParams } from './pipeline.js';

const PartialUpdate = z.object({
  set: z.record(z.string(), z.unknown()).optional(),
  unset: z.array(z.string()).optional(),
});

const MemberChanges = z.looseObject({
  add_members: z.array(z.union([z.string(), z.object({ user_id: z.string() })])).optional(),
  remove_members: z.array(z.string()).optional(),
});

const userIds = (list: Array<string | { user_id: string }>) =>
  list.map((m) => (typeof m === 'string' ? m : m.user_id));

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
    return { message: await sendMessage(ctx, actorOf(req), cid, body.message) };
  });

  http.patch<{ Params: ChannelParams }>('/channels/:type/:id', async (req) => {
    checkChannelRef(req.params.type, req.params.id);
    const body = parse(PartialUpdate, req.body);
    const cid = `${req.params.type}:${req.params.id}`;
    const channel = await updateChannelPartial(ctx, actorOf(req), cid, body.set ?? {}, body.unset ?? []);
    return { channel };
  });

  http.post<{ Params: ChannelParams }>('/channels/:type/:id', async (req) => {
    checkChannelRef(req.params.type, req.params.id);
    const body = parse(MemberChanges, req.body);
    const cid = `${req.params.type}:${req.params.id}`;
    const actor = actorOf(req);
    if (body.add_members?.length) await addMembers(ctx, actor, cid, userIds(body.add_members));
    if (body.remove_members?.length) await removeMembers(ctx, actor, cid, body.remove_members);
    const [state] = await queryChannels(ctx, actor, {
      filter_conditions: { cid },
      limit: 1,
      message_limit: 0,
    });
    return state ?? { channel: null };
  });
}
