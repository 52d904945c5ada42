import { MemberChangesRequest, MuteChannelRequest, PartialUpdateRequest } from '@caseroom/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { addMembers, removeMembers } from '../actions/channel-update.js';
import { checkChannelRef } from '../actions/channel-create.js';
import { queryChannels } from '../actions/channels.js';
import {
  answerInvite,
  assignRoles,
  inviteMembers,
  muteChannels,
  updateMemberPartial,
} from '../actions/members.js';
import type { Actor, ChatContext } from '../context.js';
import { inputError } from '../errors.js';
import { actorOf, parse, type ChannelParams } from './pipeline.js';

const userIds = (list: Array<string | { user_id: string }>) =>
  list.map((m) => (typeof m === 'string' ? m : m.user_id));

async function applyMemberChanges(
  ctx: ChatContext,
  actor: Actor,
  cid: string,
  body: z.infer<typeof MemberChangesRequest>,
) {
  if (body.accept_invite && body.reject_invite)
    throw inputError('accept_invite and reject_invite exclude each other');
  if (body.accept_invite || body.reject_invite)
    await answerInvite(ctx, actor, cid, body.accept_invite === true);
  if (body.add_members?.length) await addMembers(ctx, actor, cid, userIds(body.add_members));
  if (body.invites?.length) await inviteMembers(ctx, actor, cid, userIds(body.invites));
  const roles = [
    ...(body.add_moderators ?? []).map((user_id) => ({ user_id, channel_role: 'channel_moderator' })),
    ...(body.demote_moderators ?? []).map((user_id) => ({ user_id, channel_role: 'channel_member' })),
    ...(body.assign_roles ?? []),
  ];
  if (roles.length) await assignRoles(ctx, actor, cid, roles);
  if (body.remove_members?.length) await removeMembers(ctx, actor, cid, body.remove_members);
}

/** Members, moderators, roles, invites, per-member state and channel mutes (chat-spec §7 Channels). */
export function memberRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.post<{ Params: ChannelParams }>('/channels/:type/:id', async (req) => {
    checkChannelRef(req.params.type, req.params.id);
    const body = parse(MemberChangesRequest, req.body);
    const cid = `${req.params.type}:${req.params.id}`;
    const actor = actorOf(req);
    await applyMemberChanges(ctx, actor, cid, body);
    const invite = body.reject_invite ? { invite: 'rejected' } : {};
    const [state] = await queryChannels(ctx, actor, {
      filter_conditions: { cid, ...invite },
      limit: 1,
      message_limit: 0,
    });
    return state ?? { channel: null };
  });

  http.patch<{ Params: ChannelParams & { userId: string } }>(
    '/channels/:type/:id/member/:userId',
    async (req) => {
      checkChannelRef(req.params.type, req.params.id);
      const body = parse(PartialUpdateRequest, req.body);
      const cid = `${req.params.type}:${req.params.id}`;
      const member = await updateMemberPartial(
        ctx,
        actorOf(req),
        cid,
        req.params.userId,
        body.set ?? {},
        body.unset ?? [],
      );
      return { channel_member: member };
    },
  );

  const mute = (on: boolean) => async (req: FastifyRequest) => {
    const body = parse(MuteChannelRequest, req.body);
    const cids = [...(body.channel_cids ?? []), ...(body.channel_cid ? [body.channel_cid] : [])];
    if (cids.length === 0) throw inputError('channel_cid or channel_cids is required');
    return muteChannels(ctx, actorOf(req), cids, on, on ? body.expiration : undefined);
  };
  http.post('/moderation/mute/channel', mute(true));
  http.post('/moderation/unmute/channel', mute(false));
}
