import {
  DEFAULT_CHANNEL_TYPE_SETTINGS,
  FROZEN_REMOVES,
  type Capability,
  type ChannelTypeSettings,
  type PermissionRule,
} from '@caseroom/protocol';
import type { ChannelRow, MemberRow } from '../store/rows.js';
import { canReadChannel } from './read-access.js';
import { grantedCapabilities } from './rules.js';

/** The read rule lives in `policy/read-access`; re-exported for the callers that check capabilities. */
export { canReadChannel };

/** The viewer of a channel: their global role, their membership (undefined = not a member) and the rules in force. */
export interface ChannelViewer {
  role: string;
  member: MemberRow | undefined;
  rules: readonly PermissionRule[];
}

/** Channel-type settings that switch a capability off for every channel of the type. */
const SETTING_GATES: ReadonlyArray<[keyof ChannelTypeSettings, Capability]> = [
  ['typing_events', 'typing-events'],
  ['read_events', 'read-events'],
  ['replies', 'send-reply'],
  ['reactions', 'send-reaction'],
  ['uploads', 'upload-file'],
  ['search', 'search-messages'],
  ['mutes', 'mute-channel'],
];

/** A channel type's settings: the stored differences over the defaults. */
export function typeSettings(channel: Pick<ChannelRow, 'config'>): ChannelTypeSettings {
  return { ...DEFAULT_CHANNEL_TYPE_SETTINGS, ...(channel.config ?? {}) };
}

/**
 * `own_capabilities` of one viewer in one channel (chat-spec §6): the permission rules decide each capability for
 * the viewer's roles (global role and channel role); only readers get any (a global admin who is not a member gets
 * none). Type settings switch some off (typing, read events, replies, reactions, uploads, search, mutes), frozen
 * channels lose the send capabilities, and slow mode shows as `slow-mode` unless the viewer may skip it.
 */
export function ownCapabilities(channel: ChannelRow, viewer: ChannelViewer): Capability[] {
  const { member } = viewer;
  if (!member || !canReadChannel(viewer)) return [];
  let caps = grantedCapabilities(viewer.rules, {
    channelType: channel.type,
    roles: new Set([viewer.role, member.channel_role]),
    owner: member.channel_role === 'owner',
  });
  const settings = typeSettings(channel);
  const off = new Set(SETTING_GATES.filter(([k]) => settings[k] === false).map(([, c]) => c));
  caps = caps.filter((c) => !off.has(c));
  if (channel.frozen) caps = caps.filter((c) => !FROZEN_REMOVES.has(c));
  if (channel.cooldown > 0 && caps.includes('send-message') && !caps.includes('skip-slow-mode')) {
    caps.push('slow-mode');
  }
  return caps;
}
