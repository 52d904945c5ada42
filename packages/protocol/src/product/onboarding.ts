import { z } from 'zod';

/**
 * First run and invitations (issue 15): the public setup endpoint, the public invite card, and the payloads
 * of re-sending and cancelling an invite.
 */

const Id = z.string().trim().min(1).max(200);
const Name = z.string().trim().min(1).max(200);

/** Must match the server's minimum password length (better-auth `minPasswordLength`). */
export const SETUP_MIN_PASSWORD_LENGTH = 8;

/** `GET /api/setup` (public): whether this installation still waits for its first person. */
export const SetupStatus = z.object({ needed: z.boolean() });
export type SetupStatus = z.infer<typeof SetupStatus>;

/** `POST /api/setup` (public, once): the first account and its organization. */
export const SetupData = z.strictObject({
  name: Name,
  email: z.string().trim().email().max(320),
  password: z.string().min(SETUP_MIN_PASSWORD_LENGTH).max(256),
  organizationName: Name,
});
export type SetupData = z.infer<typeof SetupData>;

/**
 * The answer of `POST /api/setup`: a signed-in session as sign-up answers it (`token`, `user`; the session
 * cookie is set too) and the organization created.
 */
export const SetupResult = z.object({
  token: z.string(),
  user: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  organizationId: z.string(),
});
export type SetupResult = z.infer<typeof SetupResult>;

/**
 * `GET /api/invite?token=` (public): what the holder of an open invite's mailed token may see before signing
 * up: who invited them, to which organization, as what. 404 for anything else.
 */
export const InviteInfo = z.object({
  organization: z.string(),
  inviter: z.string().nullable(),
  type: z.enum(['admin', 'member', 'client', 'guest']),
  email: z.string(),
});
export type InviteInfo = z.infer<typeof InviteInfo>;

/** `organizations-resendInvite` and `organizations-cancelInvite`: one open invite of the organization. */
export const OrganizationInviteRefData = z.strictObject({ organizationId: Id, inviteId: Id });
export type OrganizationInviteRefData = z.infer<typeof OrganizationInviteRefData>;
