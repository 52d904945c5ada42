import { z } from 'zod';
// Exported from `index.ts` after `product.ts`, not re-exported by `product.ts` (that would be an import cycle
// evaluated before `CaseplanAbilities` exists).
import { CaseplanAbilities } from '../product.js';

/**
 * The case-plan home (`GET /api/caseplans/overview`): every plan the viewer may read with what needs their
 * attention, from the per-user statistics of product-spec §3. The rules are in `docs/caseplan-home.md`.
 */

const Timestamp = z.string();

/** Thresholds of the attention rules: one definition for the server's rules and the web's texts. */
export const CASEPLAN_ATTENTION = {
  /** A plan you work on and have not opened for this many days (since you joined it) needs a look. */
  notOpenedDays: 14,
  /** Events starting within this many days are "upcoming". */
  upcomingDays: 14,
} as const;

/** Why a plan is in "Needs attention". */
export const AttentionReason = z.enum(['clientWaiting', 'notOpened', 'eventSoon']);
export type AttentionReason = z.infer<typeof AttentionReason>;

/** The next upcoming event of a plan (for clients and guests: the next one they are invited to). */
export const OverviewEvent = z.object({
  id: z.string(),
  title: z.string(),
  startsAt: Timestamp,
  endsAt: Timestamp.nullable(),
});
export type OverviewEvent = z.infer<typeof OverviewEvent>;

/** Facts about other people on the plan: only for viewers whose `policies.stats` allows them. */
export const OverviewStaffFacts = z.object({
  /**
   * When the client started waiting for an answer, or null: the oldest `lastMessageSentAt` of an active client
   * on the plan that is newer than the newest `lastMessageToClientAt` of any active staff member on it.
   */
  clientWaitingSince: Timestamp.nullable(),
  /** The newest `lastMessageToClientAt` of the plan's staff (null: nobody has written to a client yet). */
  lastStaffReplyAt: Timestamp.nullable(),
  /** Active people on the plan: all, and how many of them are clients and guests. */
  people: z.object({ active: z.number().int(), clients: z.number().int(), guests: z.number().int() }),
});
export type OverviewStaffFacts = z.infer<typeof OverviewStaffFacts>;

/** One row of the case-plan home. */
export const CaseplanOverviewItem = z.object({
  id: z.string(),
  name: z.string(),
  organization: z.string(),
  organizationName: z.string(),
  closed: z.boolean(),
  updated: Timestamp,
  /** The viewer's own `lastOpenedAt` (null: never opened). */
  lastOpenedAt: Timestamp.nullable(),
  /**
   * The newest of the plan's `updated` and its messages' `lastMessageSentAt`: everyone's for viewers with
   * `policies.stats`, the viewer's own for others (so a client learns nothing of staff-only chats).
   */
  lastActivityAt: Timestamp,
  nextEvent: OverviewEvent.nullable(),
  /** Upcoming events (within `CASEPLAN_ATTENTION.upcomingDays`) the viewer sees, the next one included. */
  upcomingEvents: z.number().int(),
  /** Staff-only facts; null for clients, guests and everyone else without `policies.stats`. */
  staff: OverviewStaffFacts.nullable(),
  /** Why the plan needs the viewer's attention (empty: it does not). */
  attention: z.array(AttentionReason),
  policies: CaseplanAbilities,
});
export type CaseplanOverviewItem = z.infer<typeof CaseplanOverviewItem>;

/** `GET /api/caseplans/overview` (`?organization=`). */
export const CaseplanOverview = z.object({
  /** The server's clock when it answered; "for a while" and "upcoming" were measured from it. */
  now: Timestamp,
  caseplans: z.array(CaseplanOverviewItem),
});
export type CaseplanOverview = z.infer<typeof CaseplanOverview>;
