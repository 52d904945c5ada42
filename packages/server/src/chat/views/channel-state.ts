import {
  CHAT_LIMITS,
  type ChannelState,
  type MessagePagination,
  type PermissionRule,
} from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor } from '../context.js';
import {
  presentChannel,
  presentMemberWithUser,
  presentOwnMember,
  presentRead,
} from '../presenters/channel.js';
import { presentMessage } from '../presenters/message.js';
import { getMemberships, listMembers } from '../store/channels.js';
import { latestMessages, listMessages, loadLookups, pinnedMessages } from '../store/messages.js';
import type { ChannelRow, MemberRow, MessageRow, UserRow } from '../store/rows.js';
import { canReadChannel, viewCutoff } from '../policy/read-access.js';
import { roleOf } from '../policy/channel-access.js';
import { loadRules } from '../store/policy.js';

/** Pinned messages a channel state carries. */
const PINNED_IN_STATE = 10;

/** Members listed in a channel state unless asked otherwise. */
const DEFAULT_MEMBER_LIMIT = 100;

export interface StateOptions {
  messages?: MessagePagination;
  messageLimit?: number;
  memberLimit?: number;
  memberOffset?: number;
  watcherCount?: (cid: string) => number;
  /**
   * The viewer's member and user rows and the permission rules in force of a one-channel state, when the caller
   * has read them already (a channel query reads them with the channel): not read again.
   */
  viewerRows?: { member: MemberRow | undefined; user: UserRow | undefined; rules: PermissionRule[] };
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
  const known = viewerId && channels.length === 1 ? options.viewerRows : undefined;
  const memberships: Map<string, MemberRow> = known
    ? new Map(known.member && channels[0] ? [[channels[0].cid, known.member]] : [])
    : viewerId
      ? await getMemberships(q, cids, viewerId)
      : new Map();
  const members = await listMembers(
    q,
    cids,
    options.memberLimit ?? DEFAULT_MEMBER_LIMIT,
    options.memberOffset ?? 0,
  );
  const creatorIds = channels.flatMap((c) => (c.created_by_id ? [c.created_by_id] : []));
  const rules = known
    ? known.rules
    : viewerId
      ? await loadRules(
          q,
          channels.map((c) => c.type),
        )
      : [];
  // Only readers see messages (a pending invitee sees the channel and its members, nothing more).
  const readable = channels.filter((c) => !viewerId || canReadChannel({ member: memberships.get(c.cid) }));
  const after = new Map(
    readable.map((c) => [c.cid, viewCutoff({ channel: c, member: memberships.get(c.cid) })]),
  );
  let messagesByCid: Map<string, MessageRow[]>;
  if (options.messages && readable.length === 1 && readable[0]) {
    const c = readable[0];
    const scope = { cid: c.cid, truncatedAt: after.get(c.cid) ?? null };
    const page = await listMessages(q, scope, options.messages, CHAT_LIMITS.messagePageSize);
    messagesByCid = new Map([[c.cid, page]]);
  } else {
    const limit = options.messages?.limit ?? options.messageLimit ?? CHAT_LIMITS.messagePageSize;
    messagesByCid = await latestMessages(q, after, limit);
  }
  const pinnedByCid = await pinnedMessages(q, after, PINNED_IN_STATE);
  const allRows = [...messagesByCid.values(), ...pinnedByCid.values()].flat();
  // The creators and the viewer's user are read with the messages' users, in one statement.
  const lookups = await loadLookups(q, allRows, viewerId, [
    ...creatorIds,
    ...(viewerId && !known ? [viewerId] : []),
  ]);
  const creators = lookups.users;
  const viewerRole = roleOf(actor, known ? known.user : viewerId ? lookups.users.get(viewerId) : undefined);
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
      ...(membership ? { membership: presentOwnMember(membership) } : {}),
      read: after.has(c.cid) ? list.map(presentRead) : [],
      watcher_count: options.watcherCount?.(c.cid) ?? 0,
    };
  });
}
