import type { Channel, ChannelMember, ChatUser } from '@caseroom/protocol';

/** product-spec §6: a client's `clientOf` holds the channel's team, a guest's `guestOf` does; others are team. */
export type ParticipantRole = 'client' | 'guest' | 'member';

/** One other member of a channel, as the header shows them. */
export interface Participant {
  id: string;
  name: string;
  firstName: string;
  image?: string;
  /** Presence, when the channel is watched with presence (chat-spec §4). */
  online?: boolean;
  role: ParticipantRole;
}

/** product-spec §2: the number of names the header shows before '+ N more'. */
export const PARTICIPANTS_PREVIEW = 3;

export function roleOf(user: Pick<ChatUser, 'clientOf' | 'guestOf'> | undefined, team: string | undefined) {
  if (!user || !team) return 'member' as ParticipantRole;
  if (user.clientOf?.includes(team)) return 'client' as ParticipantRole;
  if (user.guestOf?.includes(team)) return 'guest' as ParticipantRole;
  return 'member' as ParticipantRole;
}

const ROLE_ORDER: Record<ParticipantRole, number> = { client: 0, guest: 1, member: 2 };

/**
 * The members other than the viewer, sorted clients first, then guests, then by name (product-spec §6).
 * Members without a user id are left out (product-spec §5: the list requires one).
 */
export function participantsOf(
  channel: Pick<Channel, 'team'> | undefined,
  members: readonly ChannelMember[],
  viewerId: string,
): Participant[] {
  const team = channel?.team;
  return members
    .filter((m) => m.user_id && m.user_id !== viewerId)
    .map((m): Participant => {
      const name = m.user?.name?.trim() || m.user_id;
      return {
        id: m.user_id,
        name,
        firstName: name.split(/\s+/)[0] ?? name,
        ...(m.user?.image ? { image: m.user.image } : {}),
        ...(m.user?.online !== undefined ? { online: m.user.online } : {}),
        role: roleOf(m.user, team),
      };
    })
    .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.name.localeCompare(b.name));
}

/** The role badge (product-spec §2): which label, if any, the viewer sees for a channel. */
export type RoleBadge = 'clientAndGuest' | 'client' | 'guest' | undefined;

export function roleBadge(
  channel: Pick<Channel, 'team'> & Record<string, unknown>,
  viewer: Pick<ChatUser, 'clientOf' | 'guestOf'> | undefined,
): RoleBadge {
  const hasClient = channel['hasClient'] === true;
  const hasGuest = channel['hasGuest'] === true;
  if (roleOf(viewer, channel.team) !== 'client') return hasGuest ? 'guest' : undefined;
  if (hasClient && hasGuest) return 'clientAndGuest';
  if (hasGuest) return 'guest';
  if (hasClient) return 'client';
  return undefined;
}

/** The first three participants and how many more there are. */
export function previewParticipants(participants: readonly Participant[]): {
  shown: Participant[];
  more: number;
} {
  return {
    shown: participants.slice(0, PARTICIPANTS_PREVIEW),
    more: Math.max(0, participants.length - PARTICIPANTS_PREVIEW),
  };
}
