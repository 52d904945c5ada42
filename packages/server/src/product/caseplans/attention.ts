import { CASEPLAN_ATTENTION, type AttentionReason, type CaseplanAbilities } from '@caseroom/protocol';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the attention rules look at, for one plan and one viewer. */
export interface AttentionFacts {
  closed: boolean;
  created: Date;
  /** The viewer's `lastOpenedAt` and when they joined the plan (null: not on it, e.g. its creator). */
  lastOpenedAt: Date | null;
  joinedAt: Date | null;
  /** From the staff facts: null when no client waits (or the viewer may not know). */
  clientWaitingSince: Date | null;
  /** The viewer's next upcoming event on the plan (already within the upcoming window). */
  hasUpcomingEvent: boolean;
}

/**
 * Why a plan needs the viewer's attention (`docs/caseplan-home.md`, table tested in `attention.test.ts`):
 * - nothing on a closed plan (it is frozen; nobody can act on it);
 * - `clientWaiting`: a client waits for an answer, for viewers whose `policies.stats` allows staff facts;
 * - `notOpened`: staff working on the plan (`participate` and `stats`) who have not opened it for
 *   `CASEPLAN_ATTENTION.notOpenedDays` — counted from joining (or the plan's creation) when never opened, so a
 *   plan you were added to yesterday is not "forgotten";
 * - `eventSoon`: an event the viewer sees starts within `CASEPLAN_ATTENTION.upcomingDays`.
 */
export function attentionOf(
  facts: AttentionFacts,
  policies: CaseplanAbilities,
  now: Date,
): AttentionReason[] {
  if (facts.closed) return [];
  const reasons: AttentionReason[] = [];
  if (policies.stats && facts.clientWaitingSince) reasons.push('clientWaiting');
  const since = facts.lastOpenedAt ?? facts.joinedAt ?? facts.created;
  const stale = now.getTime() - new Date(since).getTime() > CASEPLAN_ATTENTION.notOpenedDays * DAY_MS;
  if (policies.participate && policies.stats && stale) reasons.push('notOpened');
  if (facts.hasUpcomingEvent) reasons.push('eventSoon');
  return reasons;
}
