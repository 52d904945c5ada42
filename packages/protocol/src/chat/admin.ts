import { z } from 'zod';
import { CHAT_LIMITS } from '../constants.js';
import { CAPABILITIES, RULE_ONLY_RESOURCES } from './capabilities.js';
import { IsoDate } from './models.js';

/** Names of channel types, roles and permission ids: letters, digits, `!`, `-` and `_`. */
const Name = z
  .string()
  .min(1)
  .max(CHAT_LIMITS.maxChannelIdLength)
  .regex(/^[\w!-]+$/, 'may only contain letters, digits, "!", "-" and "_"');

export const PermissionAction = z.enum(['Allow', 'Deny']);
export type PermissionAction = z.infer<typeof PermissionAction>;

/** A capability name, `create-channel`, or `*` for every one of them. */
export const PermissionResource = z.union([
  z.enum(CAPABILITIES),
  z.enum(RULE_ONLY_RESOURCES),
  z.literal('*'),
]);

/**
 * A permission rule (chat-spec §6): for the `roles` it names (global or channel roles, `*` = everyone), in channels
 * of `channel_type` (null = every type), it allows or denies the `resources` (capabilities). `owner` rules apply only
 * to the channel's owner. Of the rules that match a capability the highest `priority` wins; on a tie, Deny wins.
 * Built in: "Allow all" (999, admins) and "Deny all" (1, everyone).
 */
export const PermissionRule = z.object({
  id: z.string(),
  name: z.string(),
  action: PermissionAction,
  owner: z.boolean(),
  priority: z.number().int(),
  resources: z.array(PermissionResource),
  roles: z.array(z.string()),
  channel_type: z.string().nullable(),
  builtin: z.boolean(),
  created_at: IsoDate.optional(),
  updated_at: IsoDate.optional(),
});
export type PermissionRule = z.infer<typeof PermissionRule>;

/** `POST /chat/permissions` and `PUT /chat/permissions/{id}`. */
export const PermissionInput = z.object({
  id: Name.optional(),
  name: z.string().min(1).max(255),
  action: PermissionAction,
  owner: z.boolean().optional(),
  priority: z.number().int().min(2).max(998),
  resources: z.array(PermissionResource).min(1),
  roles: z.array(z.string().min(1)).min(1),
  channel_type: Name.nullable().optional(),
});
export type PermissionInput = z.infer<typeof PermissionInput>;

export const RoleScope = z.enum(['global', 'channel']);

/** A role: global (a user's `role`) or channel (a member's `channel_role`). */
export const ChatRole = z.object({
  name: z.string(),
  scope: RoleScope,
  custom: z.boolean(),
  created_at: IsoDate.optional(),
  updated_at: IsoDate.optional(),
});
export type ChatRole = z.infer<typeof ChatRole>;

export const ChatRoleInput = z.object({ name: Name, scope: RoleScope.optional() });

/** The settings of a channel type; every channel of the type shares them. */
export const ChannelTypeSettings = z.object({
  /** Command names, or `["all"]` (the default) for every registered command. */
  commands: z.array(z.string()),
  url_enrichment: z.boolean(),
  typing_events: z.boolean(),
  read_events: z.boolean(),
  connect_events: z.boolean(),
  replies: z.boolean(),
  reactions: z.boolean(),
  uploads: z.boolean(),
  search: z.boolean(),
  mutes: z.boolean(),
  max_message_length: z.number().int().min(1).max(CHAT_LIMITS.maxMessageLength),
});
export type ChannelTypeSettings = z.infer<typeof ChannelTypeSettings>;

/** Defaults of a new channel type (and of the built-in `messaging`). */
export const DEFAULT_CHANNEL_TYPE_SETTINGS: ChannelTypeSettings = {
  commands: ['all'],
  url_enrichment: true,
  typing_events: true,
  read_events: true,
  connect_events: true,
  replies: true,
  reactions: true,
  uploads: true,
  search: true,
  mutes: true,
  max_message_length: CHAT_LIMITS.maxMessageLength,
};

/** `POST /chat/channeltypes` (name plus any settings; the rest default). */
export const ChannelTypeCreate = ChannelTypeSettings.partial().extend({ name: Name });
/** `PUT /chat/channeltypes/{name}`: the settings to change. */
export const ChannelTypeUpdate = ChannelTypeSettings.partial().strict();

export const ChannelType = ChannelTypeSettings.extend({
  name: z.string(),
  builtin: z.boolean(),
  permissions: z.array(PermissionRule),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type ChannelType = z.infer<typeof ChannelType>;
