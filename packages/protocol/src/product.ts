import { z } from 'zod';

/** `GET /api/config`: public client configuration. */
export const PublicConfig = z.object({
  chatApiKey: z.string(),
  chatBaseUrl: z.string(),
  authProviders: z.array(z.string()).optional(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;

/** Body of `POST /api/functions/{name}`. */
export const CallableRequest = z.object({ data: z.unknown().optional() });
export type CallableRequest = z.infer<typeof CallableRequest>;

/** Result of `chat-getToken`. */
export const ChatTokenResult = z.object({ result: z.string() });

/** `GET /api/me`. */
export const MeResponse = z.object({
  uid: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  claims: z.object({ sadmin: z.boolean().optional() }),
  user: z.looseObject({ id: z.string(), name: z.string().optional(), photo: z.string().nullable().optional() }),
});
export type MeResponse = z.infer<typeof MeResponse>;

/** Case plan as answered by `GET /api/caseplans` (product-spec §3). */
export const CaseplanUserEntry = z.object({
  role: z.string().nullable(),
  team: z.string().nullable(),
  active: z.boolean(),
  roleData: z.object({ client: z.boolean() }),
});
export const Role = z.object({
  id: z.string(),
  name: z.string(),
  client: z.boolean(),
  tempName: z.string().nullable().optional(),
  team: z.string().nullable(),
  user: z.string().nullable().optional(),
  invite: z.string().nullable().optional(),
});
export const Team = z.object({ id: z.string(), name: z.string(), organization: z.string() });
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
  updated: z.string(),
  custom: z.record(z.string(), z.unknown()),
});
export type Caseplan = z.infer<typeof Caseplan>;

export const Organization = z.object({
  id: z.string(),
  eid: z.string().nullable(),
  name: z.string(),
  users: z.record(z.string(), z.object({ type: z.string() })),
  activeUsers: z.array(z.string()),
  updated: z.string(),
});
export type Organization = z.infer<typeof Organization>;
