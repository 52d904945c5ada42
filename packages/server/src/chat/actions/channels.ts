import {
  CHAT_LIMITS,
  type ChannelState,
  type QueryChannelRequest,
  type QueryChannelsRequest,
} from '@caseroom/protocol';
import type { ChatContext, Actor } from '../context.js';
import { inputError } from '../errors.js';
import { accessTo, checkActive, checkReadable } from '../policy/channel-access.js';
import { channelReadableSql, listsInviteSql, readerSql } from '../policy/read-access.js';
import { write } from '../realtime/outbox.js';
import { CHANNEL_COLUMNS, getChannel, getChannelWithViewer } from '../store/channels.js';
import { CHANNEL_SORT, ChannelFilter } from '../store/channel-filter.js';
import type { ChannelRow } from '../store/rows.js';
import { presentRule } from '../store/policy.js';
import { channelStates, type StateOptions } from '../views/channel-state.js';
import { channelRefOf, doGetOrCreateChannel } from './channel-create.js';

/**
 * `POST /chat/channels/{type}/{id}/query` (and `/chat/channels/{type}/query` by member list): creates the
 * channel when missing, checks the actor may read it, optionally watches it, and answers its state.
 */
export async function queryChannel(
  ctx: ChatContext,
  actor: Actor,
  type: string,
  id: string | undefined,
  req: QueryChannelRequest,
): Promise<ChannelState> {
  const data = req.data ?? {};
  const { cid } = channelRefOf(actor, type, id, data, ctx.protectedChannelFields);
  // An existing channel (nearly every query: a watch, a reconnect) is read and checked in one statement, with no
  // transaction; only a missing one is created, in a transaction that checks everything again. A query by member
  // list always takes the second way: its channel is found by its members, not by the id they hash to.
  const found = id === undefined ? undefined : await readableChannel(ctx, actor, cid);
  const channel =
    found?.channel ??
    (await write(ctx, async (q, out) => {
      const created = await doGetOrCreateChannel(q, out, actor, type, id, data, ctx.protectedChannelFields);
      await accessTo(q, actor, created.channel);
      return created.channel;
    }));
  if (req.watch && actor.kind === 'user' && actor.connectionId) {
    await ctx.realtime.setWatching(actor.connectionId, channel.cid, true);
  }
  if (req.presence && actor.kind === 'user' && actor.connectionId) {
    await ctx.realtime.setPresence(actor.connectionId);
  }
  const [state] = await channelStates(ctx.db, [channel], actor, {
    ...(req.messages ? { messages: req.messages } : {}),
    ...(req.members?.limit !== undefined ? { memberLimit: req.members.limit } : {}),
    ...(req.members?.offset !== undefined ? { memberOffset: req.members.offset } : {}),
    // The viewer's member and user rows were read with the channel: not read again.
    ...(found?.viewer ? { viewerRows: found.viewer } : {}),
  });
  if (!state) throw inputError(`channel ${channel.cid} could not be read`);
  return state;
}

/**
 * The channel `cid` if it exists, once the actor may read it: the checks of `policy/channel-access` `accessTo` on
 * the channel, member and user rows read together.
 */
async function readableChannel(
  ctx: ChatContext,
  actor: Actor,
  cid: string,
): Promise<{ channel: ChannelRow; viewer?: NonNullable<StateOptions['viewerRows']> } | undefined> {
  if (actor.kind === 'server') {
    const channel = await getChannel(ctx.db, cid);
    return channel ? { channel } : undefined;
  }
  const found = await getChannelWithViewer(ctx.db, cid, actor.userId);
  if (!found) return undefined;
  const { user, member } = found;
  checkActive(actor.userId, user);
  checkReadable(actor, cid, { member });
  return { channel: found.channel, viewer: { member, user, rules: found.rules.map(presentRule) } };
}

/** Channel rows matching a filter; a user only ever sees channels they are a member of. */
export async function findChannels(
  ctx: ChatContext,
  actor: Actor,
  filter: Record<string, unknown>,
  sort: QueryChannelsRequest['sort'],
  limit: number,
  offset: number,
): Promise<ChannelRow[]> {
  const viewerId = actor.kind === 'user' ? actor.userId : undefined;
  const f = new ChannelFilter(viewerId !== undefined);
  const join = viewerId ? `JOIN chat_members vm ON vm.cid = c.cid AND vm.user_id = ${f.param(viewerId)}` : '';
  const where = [f.toSql(filter), channelReadableSql('c')];
  // Hidden channels stay out of the list unless the filter asks for them (chat-spec §4 Channel).
  if (viewerId && !('hidden' in filter)) where.push('NOT vm.hidden');
  // Readers see their channels; pending or rejected invitees (not banned) see theirs only when they ask for their
  // invites (and then the channel and its members, never its messages: views/channel-state).
  if (viewerId) where.push('invite' in filter ? listsInviteSql('vm') : readerSql('vm'));
  const order = (sort?.length ? sort : [{ field: 'last_message_at', direction: -1 as const }]).map((s) => {
    const column = CHANNEL_SORT.get(s.field);
    if (!column || (!viewerId && column.includes('vm.')))
      throw inputError(`cannot sort channels by ${s.field}`);
    return `${column} ${s.direction === 1 ? 'ASC' : 'DESC'} NULLS LAST`;
  });
  const { rows } = await ctx.db.query<ChannelRow>(
    `SELECT ${CHANNEL_COLUMNS} FROM chat_channels c ${join}
      WHERE ${where.join(' AND ')}
      ORDER BY ${[...order, 'c.cid ASC'].join(', ')}
      LIMIT ${f.param(limit)} OFFSET ${f.param(offset)}`,
    f.params,
  );
  return rows;
}

/** `POST /chat/channels`: the actor's channels matching the filter, with their state. */
export async function queryChannels(
  ctx: ChatContext,
  actor: Actor,
  req: QueryChannelsRequest,
): Promise<ChannelState[]> {
  const rows = await findChannels(
    ctx,
    actor,
    req.filter_conditions ?? {},
    req.sort,
    req.limit ?? CHAT_LIMITS.channelPageSize,
    req.offset ?? 0,
  );
  if (req.watch && actor.kind === 'user' && actor.connectionId) {
    for (const row of rows) await ctx.realtime.setWatching(actor.connectionId, row.cid, true);
  }
  if (req.presence && actor.kind === 'user' && actor.connectionId) {
    await ctx.realtime.setPresence(actor.connectionId);
  }
  return channelStates(ctx.db, rows, actor, {
    messageLimit: req.message_limit ?? CHAT_LIMITS.messagePageSize,
    ...(req.member_limit !== undefined ? { memberLimit: req.member_limit } : {}),
  });
}
