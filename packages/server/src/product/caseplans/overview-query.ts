import { CASEPLAN_ATTENTION } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';

/**
 * One row of the case-plan home as SQL computes it, for one viewer. It holds both the staff view and the
 * viewer's own view of some facts (`next_event_*` and `own_event_*`); the presenter picks what the viewer may
 * see, so a column reaches the answer only through `presentOverviewItem`.
 */
export interface OverviewRow {
  id: string;
  name: string;
  organization_id: string;
  organization_name: string;
  closed: boolean;
  created: Date;
  updated: Date;
  /** The viewer's own statistics and membership on the plan. */
  my_last_opened_at: Date | null;
  my_last_sent_at: Date | null;
  my_joined_at: Date | null;
  /** Staff facts (everyone's statistics). */
  people_active: number;
  people_clients: number;
  people_guests: number;
  last_message_at: Date | null;
  staff_reply_at: Date | null;
  client_waiting_since: Date | null;
  /** The plan's next upcoming event and how many there are. */
  next_event_id: string | null;
  next_event_title: string | null;
  next_event_starts_at: Date | null;
  next_event_ends_at: Date | null;
  upcoming_events: number;
  /** The same for the events the viewer is invited to (an attendee role of theirs, or their answer). */
  own_event_id: string | null;
  own_event_title: string | null;
  own_event_starts_at: Date | null;
  own_event_ends_at: Date | null;
  own_upcoming_events: number;
}

/**
 * The home's facts for the case plans `ids`, in one statement whatever their number (no query per plan).
 *
 * - A person on a plan is a guest (organization type `guest`), a client (client role or organization type
 *   `client`) or staff (anyone else), as `policies.positionsOf` decides; only people active on the plan and
 *   in its organization count.
 * - Client waiting since: the oldest `lastMessageSentAt` of a client that is newer than the newest
 *   `lastMessageToClientAt` of the staff (a staff message in a chat with a client answers every client of the
 *   plan). The statistics keep one time per person, so it is that client's latest message.
 * - Upcoming: an event that has not ended (or, without an end, not started) and starts within
 *   `CASEPLAN_ATTENTION.upcomingDays` of `now`.
 */
export async function queryOverview(
  q: Queryable,
  uid: string,
  ids: string[],
  now: Date,
): Promise<OverviewRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await q.query<OverviewRow>(
    `WITH plans AS (
       SELECT c.id, c.name, c.organization_id, o.name AS organization_name, c.closed, c.created, c.updated
         FROM caseplans c JOIN organizations o ON o.id = c.organization_id
        WHERE c.id = ANY($1)
     ),
     people AS (
       SELECT cu.caseplan_id, cu.user_id,
              CASE WHEN ou.type = 'guest' THEN 'guest'
                   WHEN cu.client OR ou.type = 'client' THEN 'client'
                   ELSE 'staff' END AS kind,
              s.last_message_sent_at AS sent_at, s.last_message_to_client_at AS to_client_at
         FROM caseplan_users cu
         JOIN plans p ON p.id = cu.caseplan_id
         JOIN organization_users ou
           ON ou.organization_id = p.organization_id AND ou.user_id = cu.user_id AND ou.active
         LEFT JOIN caseplan_stats s ON s.caseplan_id = cu.caseplan_id AND s.user_id = cu.user_id
        WHERE cu.active
     ),
     totals AS (
       SELECT caseplan_id,
              count(*)::int AS people_active,
              (count(*) FILTER (WHERE kind = 'client'))::int AS people_clients,
              (count(*) FILTER (WHERE kind = 'guest'))::int AS people_guests,
              max(sent_at) AS last_message_at,
              max(to_client_at) FILTER (WHERE kind = 'staff') AS staff_reply_at
         FROM people GROUP BY caseplan_id
     ),
     waiting AS (
       SELECT pe.caseplan_id, min(pe.sent_at) AS client_waiting_since
         FROM people pe JOIN totals t ON t.caseplan_id = pe.caseplan_id
        WHERE pe.kind = 'client' AND pe.sent_at > COALESCE(t.staff_reply_at, '-infinity'::timestamptz)
        GROUP BY pe.caseplan_id
     )
     SELECT p.*,
            me_s.last_opened_at AS my_last_opened_at, me_s.last_message_sent_at AS my_last_sent_at,
            me.created AS my_joined_at,
            COALESCE(t.people_active, 0) AS people_active, COALESCE(t.people_clients, 0) AS people_clients,
            COALESCE(t.people_guests, 0) AS people_guests, t.last_message_at, t.staff_reply_at,
            w.client_waiting_since,
            ev.id AS next_event_id, ev.title AS next_event_title, ev.starts_at AS next_event_starts_at,
            ev.ends_at AS next_event_ends_at, COALESCE(ev.n, 0)::int AS upcoming_events,
            own.id AS own_event_id, own.title AS own_event_title, own.starts_at AS own_event_starts_at,
            own.ends_at AS own_event_ends_at, COALESCE(own.n, 0)::int AS own_upcoming_events
       FROM plans p
       LEFT JOIN totals t ON t.caseplan_id = p.id
       LEFT JOIN waiting w ON w.caseplan_id = p.id
       LEFT JOIN caseplan_stats me_s ON me_s.caseplan_id = p.id AND me_s.user_id = $2
       LEFT JOIN caseplan_users me ON me.caseplan_id = p.id AND me.user_id = $2
       -- count(*) OVER () is taken before LIMIT: the number of upcoming events beside the first one.
       LEFT JOIN LATERAL (
         SELECT e.id, e.title, e.starts_at, e.ends_at, count(*) OVER () AS n
           FROM events e
          WHERE e.caseplan_id = p.id AND e.starts_at < $3::timestamptz + make_interval(days => $4)
            AND COALESCE(e.ends_at, e.starts_at) >= $3::timestamptz
          ORDER BY e.starts_at, e.id LIMIT 1
       ) ev ON true
       LEFT JOIN LATERAL (
         SELECT e.id, e.title, e.starts_at, e.ends_at, count(*) OVER () AS n
           FROM events e
          WHERE e.caseplan_id = p.id AND e.starts_at < $3::timestamptz + make_interval(days => $4)
            AND COALESCE(e.ends_at, e.starts_at) >= $3::timestamptz
            AND (EXISTS (SELECT 1 FROM event_rsvps r WHERE r.event_id = e.id AND r.user_id = $2)
                 OR EXISTS (SELECT 1 FROM event_attendees a JOIN roles ro ON ro.id = a.role_id
                             WHERE a.event_id = e.id
                               AND (ro.user_id = $2 OR ro.id = me.role_id)))
          ORDER BY e.starts_at, e.id LIMIT 1
       ) own ON true
      ORDER BY p.name, p.id`,
    [ids, uid, now, CASEPLAN_ATTENTION.upcomingDays],
  );
  return rows;
}
