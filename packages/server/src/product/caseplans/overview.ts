import type { CaseplanOverview, CaseplanOverviewItem, OverviewEvent } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { ProductError } from '../errors.js';
import { loadViewer } from '../organizations/queries.js';
import {
  canListOrganizationCaseplans,
  canReadCaseplan,
  caseplanAbilities,
  type CaseplanFacts,
  type Viewer,
} from '../policies.js';
import { attentionOf } from './attention.js';
import { queryOverview, type OverviewRow } from './overview-query.js';
import { candidateCaseplanIds } from './queries.js';

const iso = (d: Date) => new Date(d).toISOString();
const isoOrNull = (d: Date | null) => (d ? iso(d) : null);
const newest = (...dates: (Date | null)[]) =>
  new Date(Math.max(...dates.filter((d): d is Date => d !== null).map((d) => new Date(d).getTime())));

/** The policy facts of many case plans in two queries (the home lists hundreds; no query per plan). */
async function loadCaseplanFacts(q: Queryable, ids: string[]): Promise<Map<string, CaseplanFacts>> {
  if (ids.length === 0) return new Map();
  const [plans, users] = await Promise.all([
    q.query<{ id: string; organization_id: string; created_by: string }>(
      'SELECT id, organization_id, created_by FROM caseplans WHERE id = ANY($1)',
      [ids],
    ),
    q.query<{ caseplan_id: string; user_id: string; active: boolean; client: boolean }>(
      'SELECT caseplan_id, user_id, active, client FROM caseplan_users WHERE caseplan_id = ANY($1)',
      [ids],
    ),
  ]);
  const facts = new Map<
    string,
    CaseplanFacts & { users: Record<string, { active: boolean; client: boolean }> }
  >(plans.rows.map((p) => [p.id, { organization: p.organization_id, createdBy: p.created_by, users: {} }]));
  for (const u of users.rows) {
    const f = facts.get(u.caseplan_id);
    if (f) f.users[u.user_id] = { active: u.active, client: u.client };
  }
  return facts;
}

function event(id: string | null, title: string | null, startsAt: Date | null, endsAt: Date | null) {
  return id && title !== null && startsAt
    ? { id, title, startsAt: iso(startsAt), endsAt: isoOrNull(endsAt) }
    : null;
}

/**
 * One home row as the viewer may see it: staff facts (other people's statistics, the waiting client, every
 * event of the plan) only with `policies.stats`; others get their own statistics and their own events.
 */
export function presentOverviewItem(
  row: OverviewRow,
  viewer: Viewer,
  facts: CaseplanFacts,
  now: Date,
): CaseplanOverviewItem {
  const policies = caseplanAbilities(viewer, facts);
  const staff = policies.stats;
  const nextEvent: OverviewEvent | null = staff
    ? event(row.next_event_id, row.next_event_title, row.next_event_starts_at, row.next_event_ends_at)
    : event(row.own_event_id, row.own_event_title, row.own_event_starts_at, row.own_event_ends_at);
  const attention = attentionOf(
    {
      closed: row.closed,
      created: row.created,
      lastOpenedAt: row.my_last_opened_at,
      joinedAt: row.my_joined_at,
      clientWaitingSince: staff ? row.client_waiting_since : null,
      hasUpcomingEvent: nextEvent !== null,
    },
    policies,
    now,
  );
  return {
    id: row.id,
    name: row.name,
    organization: row.organization_id,
    organizationName: row.organization_name,
    closed: row.closed,
    updated: iso(row.updated),
    lastOpenedAt: isoOrNull(row.my_last_opened_at),
    lastActivityAt: iso(newest(row.updated, staff ? row.last_message_at : row.my_last_sent_at)),
    nextEvent,
    upcomingEvents: nextEvent ? (staff ? row.upcoming_events : row.own_upcoming_events) : 0,
    staff: staff
      ? {
          clientWaitingSince: isoOrNull(row.client_waiting_since),
          lastStaffReplyAt: isoOrNull(row.staff_reply_at),
          people: { active: row.people_active, clients: row.people_clients, guests: row.people_guests },
        }
      : null,
    attention,
    policies,
  };
}

/**
 * `GET /api/caseplans/overview` (`?organization=`): the case-plan home. The same plans as `GET /api/caseplans`
 * (the same candidates and the same policy), with their attention facts from one SQL statement.
 */
export async function readCaseplanOverview(
  q: Queryable,
  uid: string,
  organization?: string,
): Promise<CaseplanOverview> {
  const viewer = await loadViewer(q, uid);
  if (organization !== undefined && !canListOrganizationCaseplans(viewer, organization)) {
    throw new ProductError('permission-denied', 'User is not part of the organization');
  }
  const facts = await loadCaseplanFacts(q, await candidateCaseplanIds(q, uid, organization));
  const readable = [...facts].filter(([, f]) => canReadCaseplan(viewer, f)).map(([id]) => id);
  const now = new Date();
  const rows = await queryOverview(q, uid, readable, now);
  return {
    now: iso(now),
    caseplans: rows.flatMap((row) => {
      const f = facts.get(row.id);
      return f ? [presentOverviewItem(row, viewer, f, now)] : [];
    }),
  };
}
