import { CAPABILITIES, type Capability, type PermissionRule, type RuleResource } from '@caseroom/protocol';

/** Capabilities computed from the channel rather than granted by rules. */
const COMPUTED: ReadonlySet<Capability> = new Set<Capability>(['slow-mode']);

/** Capabilities a permission rule can grant or deny. */
export const RULE_CAPABILITIES: readonly Capability[] = CAPABILITIES.filter((c) => !COMPUTED.has(c));

/** What every member may do in a channel. */
const MEMBER: Capability[] = [
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
const OWNER: Capability[] = ['update-channel', 'update-channel-members', 'delete-channel'];

/** Moderators also act on anyone's messages. */
const MODERATOR: Capability[] = [
  ...OWNER,
  'update-any-message',
  'delete-any-message',
  'freeze-channel',
  'set-channel-cooldown',
  'skip-slow-mode',
  'ban-channel-members',
];

const rule = (
  id: string,
  name: string,
  action: PermissionRule['action'],
  priority: number,
  roles: string[],
  resources: PermissionRule['resources'],
  owner = false,
): PermissionRule => ({
  id,
  name,
  action,
  owner,
  priority,
  resources,
  roles,
  channel_type: null,
  builtin: true,
});

/**
 * The rules every installation starts with (for every channel type). Admins may add rules per type (e.g. a Deny
 * at priority 100 for `channel_member` on `send-links`) or delete the non-built-in ones.
 */
export const BUILT_IN_RULES: readonly PermissionRule[] = [
  rule('allow-all', 'Allow all', 'Allow', 999, ['admin'], ['*']),
  rule('anonymous-read-only', 'Anonymous users are read-only', 'Deny', 990, ['anonymous'], ['*']),
  rule('channel-moderator', 'Channel moderators', 'Allow', 70, ['channel_moderator'], MODERATOR),
  rule('channel-owner', 'Channel owner', 'Allow', 60, ['*'], OWNER, true),
  // Any signed-in user may create a channel (they become its owner and a member); a type may deny it.
  rule('channel-create', 'Users create channels', 'Allow', 50, ['*'], ['create-channel']),
  rule(
    'channel-member',
    'Channel members',
    'Allow',
    50,
    ['channel_member', 'channel_moderator', 'owner'],
    MEMBER,
  ),
  rule('deny-all', 'Deny all', 'Deny', 1, ['*'], ['*']),
];

/** Who asks, for rule matching: their global and channel roles, and whether they own the channel. */
export interface RuleSubject {
  channelType: string;
  roles: ReadonlySet<string>;
  owner: boolean;
}

function matches(r: PermissionRule, cap: RuleResource, s: RuleSubject): boolean {
  if (r.channel_type !== null && r.channel_type !== s.channelType) return false;
  if (r.owner && !s.owner) return false;
  if (!r.resources.includes('*') && !r.resources.includes(cap)) return false;
  return r.roles.includes('*') || r.roles.some((role) => s.roles.has(role));
}

/** The rule that decides `cap` for the subject: highest priority wins, Deny wins a tie. */
export function decidingRule(
  rules: readonly PermissionRule[],
  cap: RuleResource,
  subject: RuleSubject,
): PermissionRule | undefined {
  let best: PermissionRule | undefined;
  for (const r of rules) {
    if (!matches(r, cap, subject)) continue;
    if (!best || r.priority > best.priority || (r.priority === best.priority && r.action === 'Deny'))
      best = r;
  }
  return best;
}

/** The capabilities the rules grant the subject (no rule = denied), in protocol order. */
export function grantedCapabilities(rules: readonly PermissionRule[], subject: RuleSubject): Capability[] {
  return RULE_CAPABILITIES.filter((cap) => decidingRule(rules, cap, subject)?.action === 'Allow');
}
