import type { CaseplanEvent } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { ProductError } from '../errors.js';

interface EventRow {
  id: string;
  caseplan_id: string;
  title: string;
  description: string | null;
  location: string | null;
  starts_at: Date;
  ends_at: Date | null;
  created_by: string;
  created: Date;
  updated: Date;
}

const iso = (d: Date) => new Date(d).toISOString();

/** The events of a case plan (or the given ones), soonest first, with attendees and answers. */
export async function loadEvents(
  q: Queryable,
  caseplanId: string,
  eventIds?: string[],
): Promise<CaseplanEvent[]> {
  const { rows } = await q.query<EventRow>(
    `SELECT id, caseplan_id, title, description, location, starts_at, ends_at, created_by, created, updated
       FROM events WHERE caseplan_id = $1 AND ($2::text[] IS NULL OR id = ANY($2))
      ORDER BY starts_at, id`,
    [caseplanId, eventIds ?? null],
  );
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [attendees, rsvps] = await Promise.all([
    q.query<{ event_id: string; role_id: string; optional: boolean }>(
      'SELECT event_id, role_id, optional FROM event_attendees WHERE event_id = ANY($1) ORDER BY role_id',
      [ids],
    ),
    q.query<{ event_id: string; user_id: string; response: 'yes' | 'no' | 'maybe'; updated: Date }>(
      'SELECT event_id, user_id, response, updated FROM event_rsvps WHERE event_id = ANY($1) ORDER BY user_id',
      [ids],
    ),
  ]);
  const events = new Map<string, CaseplanEvent>(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        caseplan: r.caseplan_id,
        title: r.title,
        description: r.description,
        location: r.location,
        startsAt: iso(r.starts_at),
        endsAt: r.ends_at ? iso(r.ends_at) : null,
        attendees: {},
        rsvp: {},
        createdBy: r.created_by,
        created: iso(r.created),
        updated: iso(r.updated),
      },
    ]),
  );
  for (const a of attendees.rows) {
    const e = events.get(a.event_id);
    if (e) e.attendees[a.role_id] = { optional: a.optional };
  }
  for (const r of rsvps.rows) {
    const e = events.get(r.event_id);
    if (e) e.rsvp[r.user_id] = { response: r.response, updated: iso(r.updated) };
  }
  return [...events.values()];
}

/** The event on this case plan, or undefined. */
export async function loadEvent(
  q: Queryable,
  caseplanId: string,
  eventId: string,
): Promise<CaseplanEvent | undefined> {
  const [event] = await loadEvents(q, caseplanId, [eventId]);
  return event;
}

/** Replaces the attendees; every role must be on the case plan ('Role not found'). */
export async function writeAttendees(
  q: Queryable,
  caseplanId: string,
  eventId: string,
  attendees: Record<string, { optional?: boolean | undefined }>,
): Promise<void> {
  const roleIds = Object.keys(attendees);
  if (roleIds.length) {
    const { rows } = await q.query<{ id: string }>(
      'SELECT id FROM roles WHERE caseplan_id = $1 AND id = ANY($2)',
      [caseplanId, roleIds],
    );
    if (rows.length !== roleIds.length) {
      throw new ProductError('not-found', 'Role not found');
    }
  }
  await q.query('DELETE FROM event_attendees WHERE event_id = $1', [eventId]);
  for (const [roleId, a] of Object.entries(attendees)) {
    await q.query('INSERT INTO event_attendees (event_id, role_id, optional) VALUES ($1, $2, $3)', [
      eventId,
      roleId,
      a.optional ?? false,
    ]);
  }
}
