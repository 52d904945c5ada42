import { z } from 'zod';

/** Answer shapes of the product's domain reads (issue 4), in the spec's field names (product-spec §3). */

const Timestamp = z.string();

/** An event on a case plan: attendees by role id with an optional flag, RSVP per user. */
export const CaseplanEvent = z.object({
  id: z.string(),
  caseplan: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  location: z.string().nullable(),
  startsAt: Timestamp,
  endsAt: Timestamp.nullable(),
  attendees: z.record(z.string(), z.object({ optional: z.boolean() })),
  rsvp: z.record(z.string(), z.object({ response: z.enum(['yes', 'no', 'maybe']), updated: Timestamp })),
  createdBy: z.string(),
  created: Timestamp,
  updated: Timestamp,
});
export type CaseplanEvent = z.infer<typeof CaseplanEvent>;

/** Per-user case-plan statistics (product-spec §3). */
export const CaseplanUserStats = z.object({
  user: z.string(),
  lastOpenedAt: Timestamp.nullable(),
  lastMessageSentAt: Timestamp.nullable(),
  lastMessageToClientAt: Timestamp.nullable(),
  updated: Timestamp,
});
export type CaseplanUserStats = z.infer<typeof CaseplanUserStats>;

/** A contact (product-spec §3), compiled from shared case plans and organizations. */
export const Contact = z.object({
  id: z.string(),
  name: z.string(),
  photo: z.string().nullable(),
  isOnTeam: z.boolean(),
  isClient: z.boolean(),
  organizations: z.array(z.string()),
  caseplans: z.array(z.string()),
  caseplanOrganizations: z.array(z.string()),
});
export type Contact = z.infer<typeof Contact>;

/** An organization settings document: a JSON Schema (product-spec §3). */
export const SettingsDoc = z.object({
  organization: z.string(),
  doc: z.enum(['client-fields', 'caseplan-fields']),
  schema: z.record(z.string(), z.unknown()),
  created: Timestamp.nullable(),
  updated: Timestamp.nullable(),
});
export type SettingsDoc = z.infer<typeof SettingsDoc>;

/** One audit log entry: who did what to which object, when, with the state before and after. */
export const AuditEntry = z.object({
  id: z.number(),
  organization: z.string(),
  caseplan: z.string().nullable(),
  actor: z.string(),
  actorName: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  at: Timestamp,
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** `GET /api/organizations/{id}/audit`: newest first, keyset-paged with `?before=<id>`. */
export const AuditPage = z.object({ entries: z.array(AuditEntry), next: z.number().nullable() });
export type AuditPage = z.infer<typeof AuditPage>;

/** `GET /api/organizations/{id}/members`: the people and open invites, for organization admins. */
export const OrganizationMembers = z.object({
  members: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      photo: z.string().nullable(),
      type: z.string().nullable(),
      active: z.boolean(),
      admin: z.boolean(),
    }),
  ),
  invites: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      type: z.string(),
      invitedBy: z.string(),
      created: Timestamp,
    }),
  ),
});
export type OrganizationMembers = z.infer<typeof OrganizationMembers>;

/** Result of `session-load` and the `session-select*` callables (product-spec §4 Session). */
export const SessionState = z.object({
  uid: z.string(),
  caseplans: z.array(z.string()),
  organizations: z.array(z.string()),
  selectedCaseplan: z.string().nullable(),
  selectedOrganization: z.string().nullable(),
  /** Whether the user is an admin of the selected organization (product-spec §5). */
  isOrgAdmin: z.boolean(),
});
export type SessionState = z.infer<typeof SessionState>;
