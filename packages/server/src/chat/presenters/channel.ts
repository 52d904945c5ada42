import type { Channel, ChannelMember, ChatUser, ReadState } from '@caseroom/protocol';
import { ownCapabilities, type ChannelViewer } from '../policy/capabilities.js';
import { presentConfig } from '../policy/channel-types.js';
import type { MemberWithUser } from '../store/channels.js';
import type { ChannelRow, MemberRow, UserRow } from '../store/rows.js';
import { iso } from './time.js';
import { presentUser, presentUserOnce } from './user.js';

/** Column-backed channel fields; custom data may not shadow them. */
export const RESERVED_CHANNEL_FIELDS = new Set([
  'id',
  'last_seq',
  'type',
  'cid',
  'team',
  'name',
  'created_by',
  'created_by_id',
  'created_at',
  'updated_at',
  'last_message_at',
  'member_count',
  'frozen',
  'disabled',
  'hidden',
  'cooldown',
  'truncated_at',
  'config',
  'own_capabilities',
  'members',
  'member_hash',
  'deleted_at',
  'blocked',
  'muted',
  'pinned_at',
  'archived_at',
]);

/**
 * A channel as one viewer sees it: custom data (caseplans, organizations, hasClient, hasGuest) at the top
 * level, `own_capabilities` for the viewer (none for the server view), and the viewer's list state.
 */
export function presentChannel(
  row: ChannelRow,
  viewer: ChannelViewer | undefined,
  createdBy?: UserRow,
): Channel {
  const custom = Object.fromEntries(
    Object.entries(row.custom ?? {}).filter(([k]) => !RESERVED_CHANNEL_FIELDS.has(k)),
  );
  const member = viewer?.member;
  return {
    ...custom,
    id: row.id,
    type: row.type,
    cid: row.cid,
    ...(row.team !== null ? { team: row.team } : {}),
    ...(row.name !== null ? { name: row.name } : {}),
    ...(createdBy ? { created_by: presentUser(createdBy) } : {}),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    ...(row.last_message_at ? { last_message_at: iso(row.last_message_at) } : {}),
    member_count: row.member_count,
    frozen: row.frozen,
    disabled: row.disabled,
    cooldown: row.cooldown,
    ...(row.truncated_at ? { truncated_at: iso(row.truncated_at) } : {}),
    ...(typeof row.last_seq === 'number' ? { last_seq: row.last_seq } : {}),
    ...(member ? { hidden: member.hidden, muted: isMuted(member), blocked: member.blocked === true } : {}),
    config: presentConfig(row),
    own_capabilities: viewer ? ownCapabilities(row, viewer) : [],
  };
}

/** A member's mute in force now (a timed mute ends by itself). */
export function isMuted(member: MemberRow): boolean {
  return member.muted && (!member.mute_expires || new Date(member.mute_expires).getTime() > Date.now());
}

/**
 * A member as other members see it: without their own list state (`pinned_at`, `archived_at`), which is theirs
 * alone (a client need not learn that their case worker archived the chat).
 */
export function presentMember(row: MemberRow, user?: UserRow): ChannelMember {
  return memberWith(row, user ? presentUser(user) : undefined, false);
}

/** The member as they see themselves (`membership`, their own `member.updated`): with `pinned_at`, `archived_at`. */
export function presentOwnMember(row: MemberRow, user?: UserRow): ChannelMember {
  return memberWith(row, user ? presentUser(user) : undefined, true);
}

function memberWith(row: MemberRow, user: ChatUser | undefined, own: boolean): ChannelMember {
  return {
    user_id: row.user_id,
    ...(user ? { user } : {}),
    channel_role: row.channel_role,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    ...(row.invited ? { invited: true } : {}),
    ...(row.invite_accepted_at ? { invite_accepted_at: iso(row.invite_accepted_at) } : {}),
    ...(row.invite_rejected_at ? { invite_rejected_at: iso(row.invite_rejected_at) } : {}),
    ...(own ? { pinned_at: iso(row.pinned_at) ?? null, archived_at: iso(row.archived_at) ?? null } : {}),
    banned: row.banned,
    shadow_banned: row.shadow_banned,
  };
}

export function presentMemberWithUser(row: MemberWithUser): ChannelMember {
  return memberWith(row, presentUserOnce(row.user), false);
}

/** The read state of one member (chat-spec §3 Channel state `read`). */
export function presentRead(row: MemberWithUser): ReadState {
  return {
    user: presentUserOnce(row.user),
    last_read: iso(row.last_read),
    ...(row.last_read_message_id ? { last_read_message_id: row.last_read_message_id } : {}),
    unread_messages: row.unread_count,
    ...(row.last_delivered_at ? { last_delivered_at: iso(row.last_delivered_at) } : {}),
    ...(row.last_delivered_message_id ? { last_delivered_message_id: row.last_delivered_message_id } : {}),
  };
}
