import { z } from 'zod';

/**
 * Payloads (`data`) of the product's callable functions (`POST /api/functions/{name}`, product-spec §7).
 * The server validates with these; the web app builds its requests from the same types.
 */

const Id = z.string().trim().min(1).max(200);
const Name = z.string().trim().min(1).max(200);
const Reason = z.string().trim().max(2000);

export const OrganizationUserTypeInput = z.enum(['admin', 'member', 'client', 'guest']);

export const CaseplanCreateData = z.strictObject({
  organization: Id,
  name: Name,
  custom: z.record(z.string(), z.unknown()).optional(),
});
export type CaseplanCreateData = z.infer<typeof CaseplanCreateData>;

export const CaseplanUpdateData = z.strictObject({ caseplanId: Id, name: Name.optional() });
export type CaseplanUpdateData = z.infer<typeof CaseplanUpdateData>;

export const CaseplanUpdateCustomData = z.strictObject({
  caseplanId: Id,
  custom: z.record(z.string(), z.unknown()),
});
export type CaseplanUpdateCustomData = z.infer<typeof CaseplanUpdateCustomData>;

/**
 * Put a person on a case plan in a role; the role must have a team, and without `userId` the role's own user
 * is seated (product-spec §5 role rules: 'Role not found', 'Role has no team', 'Role has no user').
 */
export const CaseplanAddUserData = z.strictObject({ caseplanId: Id, roleId: Id, userId: Id.optional() });
export type CaseplanAddUserData = z.infer<typeof CaseplanAddUserData>;

export const CaseplanRemoveUserData = z.strictObject({ caseplanId: Id, userId: Id });
export type CaseplanRemoveUserData = z.infer<typeof CaseplanRemoveUserData>;

export const CaseplanAddTeamData = z.strictObject({ caseplanId: Id, name: Name });
export type CaseplanAddTeamData = z.infer<typeof CaseplanAddTeamData>;

export const CaseplanUpdateTeamData = z.strictObject({ caseplanId: Id, teamId: Id, name: Name });
export type CaseplanUpdateTeamData = z.infer<typeof CaseplanUpdateTeamData>;

export const CaseplanAddRoleData = z.strictObject({
  caseplanId: Id,
  name: Name,
  teamId: Id,
  client: z.boolean().optional(),
  tempName: Name.nullable().optional(),
  userId: Id.nullable().optional(),
  invite: z.string().trim().email().nullable().optional(),
});
export type CaseplanAddRoleData = z.infer<typeof CaseplanAddRoleData>;

export const CaseplanUpdateRoleData = z.strictObject({
  caseplanId: Id,
  roleId: Id,
  name: Name.optional(),
  teamId: Id.optional(),
  client: z.boolean().optional(),
  tempName: Name.nullable().optional(),
  /** Ties the role to a user (who must already be on the plan) or unties it (null). */
  userId: Id.nullable().optional(),
  invite: z.string().trim().email().nullable().optional(),
});
export type CaseplanUpdateRoleData = z.infer<typeof CaseplanUpdateRoleData>;

export const CaseplanCloseData = z.strictObject({ caseplanId: Id, reason: Reason.optional() });
export type CaseplanCloseData = z.infer<typeof CaseplanCloseData>;

export const OrganizationCreateData = z.strictObject({
  name: Name,
  eid: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/)
    .optional(),
  /** E-mail of the first organization admin (invited when they have no account yet). */
  adminEmail: z.string().trim().email().optional(),
});
export type OrganizationCreateData = z.infer<typeof OrganizationCreateData>;

export const OrganizationInviteUserData = z.strictObject({
  organizationId: Id,
  email: z.string().trim().email().max(320),
  type: OrganizationUserTypeInput,
});
export type OrganizationInviteUserData = z.infer<typeof OrganizationInviteUserData>;

export const OrganizationRemoveUserData = z.strictObject({ organizationId: Id, userId: Id });
export type OrganizationRemoveUserData = z.infer<typeof OrganizationRemoveUserData>;

export const OrganizationSetUserTypeData = z.strictObject({
  organizationId: Id,
  userId: Id,
  type: OrganizationUserTypeInput,
});
export type OrganizationSetUserTypeData = z.infer<typeof OrganizationSetUserTypeData>;

export const SettingsDocName = z.enum(['client-fields', 'caseplan-fields']);
export type SettingsDocName = z.infer<typeof SettingsDocName>;

/**
 * The JSON Schema keyword on one custom field (a property of a settings schema) that says who may see it:
 * `staff` keeps the field, its value and its definition out of every answer to clients and guests (the server
 * strips it); absent or `everyone` shows it to everyone who may read the plan. The form builder writes it.
 */
export const FIELD_VISIBILITY_KEYWORD = 'x-visibility';
export const FieldVisibility = z.enum(['everyone', 'staff']);
export type FieldVisibility = z.infer<typeof FieldVisibility>;

export const SettingsGetData = z.strictObject({ organizationId: Id, doc: SettingsDocName });
export type SettingsGetData = z.infer<typeof SettingsGetData>;

/** `schema` must be a JSON Schema (draft 2020-12 subset ajv compiles) describing an object. */
export const SettingsSetData = z.strictObject({
  organizationId: Id,
  doc: SettingsDocName,
  schema: z.record(z.string(), z.unknown()),
});
export type SettingsSetData = z.infer<typeof SettingsSetData>;

const IsoDate = z.iso.datetime({ offset: true });
const Attendees = z.record(Id, z.strictObject({ optional: z.boolean().optional() }));

export const EventCreateData = z.strictObject({
  caseplanId: Id,
  title: Name,
  description: z.string().max(5000).optional(),
  location: z.string().max(500).optional(),
  startsAt: IsoDate,
  endsAt: IsoDate.optional(),
  /** Attendees keyed by role id, each with an optional flag (product-spec §3 Event). */
  attendees: Attendees.default({}),
});
export type EventCreateData = z.input<typeof EventCreateData>;

export const EventUpdateData = z.strictObject({
  caseplanId: Id,
  eventId: Id,
  title: Name.optional(),
  description: z.string().max(5000).nullable().optional(),
  location: z.string().max(500).nullable().optional(),
  startsAt: IsoDate.optional(),
  endsAt: IsoDate.nullable().optional(),
  attendees: Attendees.optional(),
});
export type EventUpdateData = z.infer<typeof EventUpdateData>;

export const RsvpResponse = z.enum(['yes', 'no', 'maybe']);
export type RsvpResponse = z.infer<typeof RsvpResponse>;

export const EventRsvpData = z.strictObject({ caseplanId: Id, eventId: Id, response: RsvpResponse });
export type EventRsvpData = z.infer<typeof EventRsvpData>;

/** `session-load`: optionally the token of a mailed invite link (claims that invite, see docs/permissions.md). */
export const SessionLoadData = z
  .strictObject({ invite: z.string().trim().min(1).max(300).optional() })
  .optional();
export type SessionLoadData = z.infer<typeof SessionLoadData>;

export const SessionSelectCaseplanData = z.strictObject({ caseplanId: Id });
export const SessionSelectOrganizationData = z.strictObject({ organizationId: Id });

/**
 * `chat-startChat`: the contacts (user ids, the caller among them) and, when started from a case plan, its id
 * (then every member must be active on it).
 */
export const ChatStartData = z.strictObject({
  contacts: z.array(Id).max(100),
  caseplanId: Id.optional(),
  name: Name.optional(),
});
export type ChatStartData = z.infer<typeof ChatStartData>;
