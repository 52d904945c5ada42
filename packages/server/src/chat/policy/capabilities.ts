import { FROZEN_REMOVES, type Capability } from '@caseroom/protocol';
import type { ChannelRow, MemberRow } from '../store/rows.js';

/** What every member may do in a channel. */
const MEMBER: readonly Capability[] = [
  'send-message',
  'send-reply',
  'upload-file',
  'send-links',
  'send-poll',
  'send-reaction',
  'read-events',
  'typing-events',
  'quote-message',
  'pin-message',
  'flag-message',
  'update-own-message',
  'delete-own-message',
  'mute-channel',
  'leave-channel',
  'send-custom-events',
  'search-messages',
  'share-location',
  'cast-poll-vote',
  'query-poll-votes',
];

/** Channel owners (creators) also manage the channel and its members. */
const OWNER: readonly Capability[] = [
  ...MEMBER,
  'update-channel',
  'update-channel-members',
  'delete-channel',
];

/** Moderators (and global admins) also act on anyone's messages. */
const MODERATOR: readonly Capability[] = [
  ...OWNER,
  'update-any-message',
  'delete-any-message',
  'freeze-channel',
  'set-channel-cooldown',
  'skip-slow-mode',
  'ban-channel-members',
];

/** The viewer of a channel: their global role and their membership (undefined = not a member). */
export interface ChannelViewer {
  role: string;
  member: MemberRow | undefined;
}

/**
 * `own_capabilities` of one viewer in one channel (chat-spec §6). Non-members get none, whatever their global
 * role: in `messaging` channels only members read or write (a global admin is a moderator where a member). Frozen channels lose the send capabilities; slow mode shows as
 * `slow-mode` unless the viewer may skip it.
 */
export function ownCapabilities(channel: ChannelRow, viewer: ChannelViewer): Capability[] {
  const { member } = viewer;
  let caps: readonly Capability[];
  if (!member || member.banned) caps = [];
  else if (viewer.role === 'admin' || member.channel_role === 'channel_moderator') caps = MODERATOR;
  else if (member.channel_role === 'owner') caps = OWNER;
  else caps = MEMBER;
  let result = [...caps];
  if (channel.frozen) result = result.filter((c) => !FROZEN_REMOVES.has(c));
  if (channel.cooldown > 0 && result.includes('send-message') && !result.includes('skip-slow-mode')) {
    result.push('slow-mode');
  }
  return result;
}

/** True when the viewer may read the channel (its messages, members, events). */
export function canReadChannel(viewer: ChannelViewer): boolean {
  return viewer.member !== undefined && !viewer.member.banned;
}
