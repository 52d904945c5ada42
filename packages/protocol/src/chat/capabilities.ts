/** Channel capabilities of chat-spec §6, as listed in `own_capabilities`. */
export const CAPABILITIES = [
  'send-message',
  'send-reply',
  'upload-file',
  'send-links',
  'send-poll',
  'slow-mode',
  'send-reaction',
  'read-events',
  'typing-events',
  'quote-message',
  'pin-message',
  'flag-message',
  'update-own-message',
  'update-any-message',
  'delete-own-message',
  'delete-any-message',
  'mute-channel',
  'update-channel',
  'update-channel-members',
  'delete-channel',
  'freeze-channel',
  'set-channel-cooldown',
  'skip-slow-mode',
  'ban-channel-members',
  'send-custom-events',
  'join-channel',
  'leave-channel',
  'search-messages',
  'share-location',
  'cast-poll-vote',
  'query-poll-votes',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * Rule resources that are not channel capabilities (never in `own_capabilities`): `create-channel` decides who may
 * create a channel of a type (the creator's global role; the server always may).
 */
export const RULE_ONLY_RESOURCES = ['create-channel'] as const;
export type RuleResource = Capability | (typeof RULE_ONLY_RESOURCES)[number];

/** Capabilities removed while a channel is frozen. */
export const FROZEN_REMOVES: ReadonlySet<Capability> = new Set<Capability>([
  'send-message',
  'send-reply',
  'send-reaction',
  'upload-file',
  'send-links',
  'send-poll',
  'update-own-message',
  'update-any-message',
  'delete-own-message',
  'delete-any-message',
  'pin-message',
  'typing-events',
  'share-location',
  'cast-poll-vote',
]);
