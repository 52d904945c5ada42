import type { Channel } from '@caseroom/protocol';
import { addMembers, removeMembers, updateChannelPartial } from './actions/channel-update.js';
import { doGetOrCreateChannel } from './actions/channel-create.js';
import { findChannels } from './actions/channels.js';
import { assignRoles } from './actions/members.js';
import { installTypeRules } from './actions/permissions.js';
import { sendMessage } from './actions/message-send.js';
import { upsertUsers } from './actions/users.js';
import { signChatToken } from './auth.js';
import { SERVER, type ChatContext } from './context.js';
import { ChatError, inputError } from './errors.js';
import { channelForActor } from './policy/channel-access.js';
import { isChannelReadable } from './policy/read-access.js';
import { presentChannel } from './presenters/channel.js';
import { write } from './realtime/outbox.js';
import { revokeTokens } from './realtime/revocations.js';
import { getUser } from './store/users.js';
import type { ChatServerApi } from './server-api.js';
import { chatWithin } from './server-tx.js';

/**
 * The server-side API (full rights, like a client holding the API secret). Each method runs the same action
 * as its HTTP route, as the server actor.
 */
export function createServerApi(ctx: ChatContext): ChatServerApi {
  return {
    createToken: (userId, expiresInSeconds) =>
      signChatToken(ctx.config, { user_id: userId }, expiresInSeconds),
    upsertUsers: (users) => upsertUsers(ctx, SERVER, users),
    disconnectUser: (userId) => revokeTokens(ctx, userId),
    async getOrCreateChannel(type, id, data, createdById): Promise<Channel> {
      const channel = await write(ctx, async (q, out) => {
        if (!(await getUser(q, createdById))) throw inputError(`user ${createdById} does not exist`);
        const { channel } = await doGetOrCreateChannel(
          q,
          out,
          SERVER,
          type,
          id,
          data,
          ctx.protectedChannelFields,
          createdById,
        );
        return channel;
      });
      return presentChannel(channel, undefined);
    },
    updateChannelPartial: (cid, set, unset) => updateChannelPartial(ctx, SERVER, cid, set, unset),
    addMembers: (cid, userIds) => addMembers(ctx, SERVER, cid, userIds),
    removeMembers: (cid, userIds) => removeMembers(ctx, SERVER, cid, userIds),
    addModerators: (cid, userIds) =>
      assignRoles(
        ctx,
        SERVER,
        cid,
        userIds.map((user_id) => ({ user_id, channel_role: 'channel_moderator' })),
      ),
    async queryChannels(filter, limit = 25) {
      const rows = await findChannels(ctx, SERVER, filter, undefined, limit, 0);
      return rows.map((row) => presentChannel(row, undefined));
    },
    async sendMessage(cid, userId, message) {
      if (!(await getUser(ctx.db, userId))) throw inputError(`user ${userId} does not exist`);
      return sendMessage(ctx, SERVER, cid, message, userId);
    },
    onMessageNew(hook) {
      ctx.hooks.messageNew.push(hook);
    },
    protectChannelFields(fields) {
      for (const f of fields) ctx.protectedChannelFields.add(f);
    },
    within: (q) => chatWithin(ctx, q, createServerApi),
    installRules: (rules) => installTypeRules(ctx.db, rules),
    reserveUserIds(isReserved) {
      ctx.hooks.reservedUserIds.push(isReserved);
    },
    onMessageRemoved(hook) {
      ctx.hooks.messageRemoved.push(hook);
    },
    async readableChannel(cid, userId) {
      try {
        const { channel } = await channelForActor(ctx.db, { kind: 'user', userId }, cid);
        if (!isChannelReadable(channel)) return undefined;
        return { cid: channel.cid, team: channel.team ?? undefined, custom: channel.custom };
      } catch (err) {
        // Missing (404) or not a reader (403): the same "no" to the product, which answers "not found".
        if (err instanceof ChatError && (err.status === 403 || err.status === 404)) return undefined;
        throw err;
      }
    },
  };
}
