import { CHAT_LIMITS, type ChannelState, type MessagePagination } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor } from '../context.js';
import { presentChannel, presentMember, presentMemberWithUser, presentRead } from '../presenters/channel.js';
import { presentMessage } from '../presenters/message.js';
import { getMemberships, listMembers } from '../store/channels.js';
import { listMessages, loadLookups } from '../store/messages.js';
import type { ChannelRow, MessageRow } from '../store/rows.js';
import { roleOf } from '../policy/channel-access.js';
import { loadRules } from '../store/policy.js';
import { getUsers } from '../store/users.js';

/** Members listed in a channel state unless asked otherwise. */
const DEFAULT_MEMBER_LIMIT = 100;

export interface StateOptions {
  messages?: MessagePagination;
  messageLimit?: number;
  memberLimit?: number;
  memberOffset?: number;
  watcherCount?: (cid: string) => number;
}

/** Channel states (channel, messages, members, read, pinned messages) as one viewer sees them. */
export async function channelStates(
  q: Queryable,
  channels: ChannelRow[],
  actor: Actor,
  options: StateOptions = {},
): Promise<ChannelState[]> {
  const cids = channels.map((c) => c.cid);
  const viewerId = actor.kind === 'user' ? actor.userId : undefined;
  const memberships = viewerId ? await getMemberships(q, cids, viewerId) : new Map();
  const members = await listMembers(
    q,
    cids,
    options.memberLimit ?? DEFAULT_MEMBER_LIMIT,
    options.memberOffset ?? 0,
  );
  const creators = await getUsers(
    q,
    channels.flatMap((c) => (c.created_by_id ? [c.created_by_id] : [])),
  );
  const viewerRole = roleOf(actor, viewerId ? (await getUsers(q, [viewerId])).get(viewerId) : undefined);
  const rules = viewerId
    ? await loadRules(
        q,
        channels.map((c) => c.type),
      )
    : [];
  const messagesByCid = new Map<string, MessageRow[]>();
  const pinnedByCid = new Map<string, MessageRow[]>();
  for (const c of channels) {
    const page = options.messages ?? { limit: options.messageLimit ?? CHAT_LIMITS.messagePageSize };
    const scope = { cid: c.cid, truncatedAt: c.truncated_at };
    messagesByCid.set(c.cid, await listMessages(q, scope, page, CHAT_LIMITS.messagePageSize));
    const pinned = await q.query<MessageRow>(
      `SELECT * FROM chat_messages WHERE cid = $1 AND pinned AND type <> 'deleted'
         AND (pin_expires IS NULL OR pin_expires > now()) ORDER BY pinned_at DESC LIMIT 10`,
      [c.cid],
    );
    pinnedByCid.set(c.cid, pinned.rows);
  }
  const allRows = [...messagesByCid.values(), ...pinnedByCid.values()].flat();
  const lookups = await loadLookups(q, allRows, viewerId);
  return channels.map((c) => {
    const membership = memberships.get(c.cid);
    const viewer = viewerId ? { role: viewerRole, member: membership, rules } : undefined;
    const list = members.get(c.cid) ?? [];
    const creator = c.created_by_id ? creators.get(c.created_by_id) : undefined;
    return {
      channel: presentChannel(c, viewer, creator),
      messages: (messagesByCid.get(c.cid) ?? []).map((m) => presentMessage(m, lookups)),
      pinned_messages: (pinnedByCid.get(c.cid) ?? []).map((m) => presentMessage(m, lookups)),
      members: list.map(presentMemberWithUser),
      ...(membership ? { membership: presentMember(membership) } : {}),
      read: list.map(presentRead),
      watcher_count: options.watcherCount?.(c.cid) ?? 0,
    };
  });
}
