import { z } from 'zod';

/** `GET /api/config`: public client configuration. */
export const PublicConfig = z.object({
  chatApiKey: z.string(),
  chatBaseUrl: z.string(),
  /** Social sign-in providers configured on this server (`google`, `microsoft`, `apple`). */
  authProviders: z.array(z.string()).optional(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;

/** Body of `POST /api/functions/{name}`. */
export const CallableRequest = z.object({ data: z.unknown().optional() });
export type CallableRequest = z.infer<typeof CallableRequest>;

/** Success body of `POST /api/functions/{name}`. */
export const CallableResponse = z.object({ result: z.unknown() });
export type CallableResponse = z.infer<typeof CallableResponse>;

/** Result of `chat-getToken`. */
export const ChatTokenResult = z.object({ result: z.string() });

/** ISO 8601 timestamp as the product API answers it. */
const Timestamp = z.string();

/** The product's user record (product-spec §3 User), as its owner sees it. */
export const ProductUser = z.object({
  id: z.string(),
  name: z.string(),
  photo: z.string().nullable(),
  timezone: z.string().nullable(),
  lastLogin: Timestamp.nullable(),
  created: Timestamp,
  updated: Timestamp,
});
export type ProductUser = z.infer<typeof ProductUser>;

/** `GET /api/me`: the signed-in account, its token claims and its user record. */
export const MeResponse = z.object({
  uid: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  /** Token claims; `sadmin` is present (and `true`) only for super-admins. */
  claims: z.object({ sadmin: z.boolean().optional() }),
  /** What the account may do outside any organization, decided by the server (`policies.ts`). */
  policies: z.object({ createOrganization: z.boolean() }),
  user: z.looseObject({
    id: z.string(),
    name: z.string().optional(),
    photo: z.string().nullable().optional(),
    timezone: z.string().nullable().optional(),
    lastLogin: Timestamp.nullable().optional(),
    created: Timestamp.optional(),
    updated: Timestamp.optional(),
  }),
});
export type MeResponse = z.infer<typeof MeResponse>;

/** One entry of a case plan's `users` map: the person's role, team and whether they are active. */
export const CaseplanUserEntry = z.object({
  /** Role id (a key of `roles`), or null when the person has no role yet. */
  role: z.string().nullable(),
  /** Team id (a key of `teams`), or null. */
  team: z.string().nullable(),
  active: z.boolean(),
  roleData: z.object({ client: z.boolean() }),
});
export type CaseplanUserEntry = z.infer<typeof CaseplanUserEntry>;

/** A role on a case plan (product-spec §3 Role). */
export const Role = z.object({
  id: z.string(),
  name: z.string(),
  client: z.boolean(),
  tempName: z.string().nullable().optional(),
  team: z.string().nullable(),
  user: z.string().nullable().optional(),
  invite: z.string().nullable().optional(),
});
export type Role = z.infer<typeof Role>;

/** A team on a case plan (product-spec §3 Team). */
export const Team = z.object({ id: z.string(), name: z.string(), organization: z.string() });
export type Team = z.infer<typeof Team>;

/**
 * What the viewer may do with one case plan (Outline's `policies`): computed by the server from the permission
 * table (`server/src/product/permissions.ts`), so the web shows only what the server would allow and never keeps
 * a copy of the rules.
 */
export const CaseplanAbilities = z.object({
  read: z.boolean(),
  /** caseplans-update/updateCustom/addUser/removeUser/addTeam/updateTeam/addRole/updateRole, events-create/update. */
  edit: z.boolean(),
  /** caseplans-close / caseplans-reopen. */
  close: z.boolean(),
  /** `GET /api/caseplans/{id}/stats`. */
  stats: z.boolean(),
  /** events-rsvp, session-selectCaseplan, chat-startChat. */
  participate: z.boolean(),
});
export type CaseplanAbilities = z.infer<typeof CaseplanAbilities>;

/**
 * Case plan as answered by `GET /api/caseplans` (an array of these) and `GET /api/caseplans/{id}`
 * (product-spec §3). `roles` and `teams` are maps keyed by id.
 */
export const Caseplan = z.object({
  id: z.string(),
  name: z.string(),
  organization: z.string(),
  users: z.record(z.string(), CaseplanUserEntry),
  roles: z.record(z.string(), Role),
  teams: z.record(z.string(), Team),
  activeUsers: z.array(z.string()),
  createdBy: z.string(),
  closed: z.boolean(),
  created: Timestamp,
  updated: Timestamp,
  custom: z.record(z.string(), z.unknown()),
  /** The newest close or reopen: who, when and why (absent when never closed). */
  closing: z
    .object({
      action: z.enum(['close', 'reopen']),
      by: z.string(),
      at: Timestamp,
      reason: z.string().nullable(),
    })
    .nullable()
    .optional(),
  /** The viewer's abilities on this plan. */
  policies: CaseplanAbilities,
});
export type Caseplan = z.infer<typeof Caseplan>;

/** Organization user types; `admin` is the organization admin (product-spec §3, §5). */
export const OrganizationUserType = z.enum(['admin', 'member', 'client', 'guest']);
export type OrganizationUserType = z.infer<typeof OrganizationUserType>;

/** What the viewer may do in one organization (see {@link CaseplanAbilities}). */
export const OrganizationAbilities = z.object({
  read: z.boolean(),
  /** Invite, remove and retype people; `GET /api/organizations/{id}/members`. */
  manage: z.boolean(),
  /** `GET /api/organizations/{id}/audit`. */
  audit: z.boolean(),
  /** settings-get (field schemas). */
  readSettings: z.boolean(),
  /** settings-set (field schemas). */
  writeSettings: z.boolean(),
  /** `GET /api/caseplans?organization=`. */
  listCaseplans: z.boolean(),
  /** caseplans-create. */
  createCaseplan: z.boolean(),
  /** `GET /api/organizations/{id}/analytics` (chats opened and messages sent per week). */
  analytics: z.boolean(),
});
export type OrganizationAbilities = z.infer<typeof OrganizationAbilities>;

/** Organization as answered by `GET /api/organizations` (an array of these). */
export const Organization = z.object({
  id: z.string(),
  eid: z.string().nullable(),
  name: z.string(),
  /** People with a type in the organization. Clients and guests see only their own entry. */
  users: z.record(z.string(), z.object({ type: z.string() })),
  activeUsers: z.array(z.string()),
  updated: Timestamp,
  /** The viewer's abilities in this organization. */
  policies: OrganizationAbilities,
});
export type Organization = z.infer<typeof Organization>;

export * from './product/calls.js';
export * from './product/domain.js';
export * from './product/onboarding.js';
export * from './product/analytics.js';
