import crypto from 'node:crypto';
import { EventCreateData, EventRsvpData, EventUpdateData } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { recordAudit } from '../audit/record.js';
import { authorizeCaseplan } from '../callables/authorize.js';
import { defineCallable } from '../callables/registry.js';
import { ProductError } from '../errors.js';
import { loadEvent, writeAttendees } from './queries.js';

const eventNotFound = () => new ProductError('not-found', 'Event not found');

function checkTimes(startsAt: string, endsAt: string | null | undefined): void {
  if (endsAt && Date.parse(endsAt) < Date.parse(startsAt)) {
    throw new ProductError('invalid-argument', 'endsAt: must not be before startsAt');
  }
}

/** `events-create`, `events-update`, `events-rsvp`: meetings on a case plan (product-spec §3 Event). */
export function eventCallables() {
  const create = defineCallable({
    name: 'events-create',
    data: EventCreateData,
    authorize: async ({ caller, q }, d) => {
      await authorizeCaseplan(q, caller.uid, 'caseplans.edit', d.caseplanId, { write: true });
    },
    action: async ({ caller, q }, d) => {
      checkTimes(d.startsAt, d.endsAt);
      const id = crypto.randomUUID();
      await q.query(
        `INSERT INTO events (id, caseplan_id, title, description, location, starts_at, ends_at, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          id,
          d.caseplanId,
          d.title,
          d.description ?? null,
          d.location ?? null,
          d.startsAt,
          d.endsAt ?? null,
          caller.uid,
        ],
      );
      await writeAttendees(q, d.caseplanId, id, d.attendees);
      const after = await loadEvent(q, d.caseplanId, id);
      await auditEvent(q, caller.uid, d.caseplanId, 'event.create', id, null, after);
      return id;
    },
  });

  const update = defineCallable({
    name: 'events-update',
    data: EventUpdateData,
    authorize: async ({ caller, q }, d) => {
      await authorizeCaseplan(q, caller.uid, 'caseplans.edit', d.caseplanId, { write: true });
    },
    action: async ({ caller, q }, d) => {
      const before = await loadEvent(q, d.caseplanId, d.eventId);
      if (!before) throw eventNotFound();
      checkTimes(d.startsAt ?? before.startsAt, d.endsAt === undefined ? before.endsAt : d.endsAt);
      const set = (v: unknown) => v !== undefined;
      await q.query(
        `UPDATE events SET title = COALESCE($2, title),
                description = CASE WHEN $3 THEN $4 ELSE description END,
                location = CASE WHEN $5 THEN $6 ELSE location END,
                starts_at = COALESCE($7, starts_at),
                ends_at = CASE WHEN $8 THEN $9::timestamptz ELSE ends_at END,
                updated = now()
          WHERE id = $1`,
        [
          d.eventId,
          d.title ?? null,
          set(d.description),
          d.description ?? null,
          set(d.location),
          d.location ?? null,
          d.startsAt ?? null,
          set(d.endsAt),
          d.endsAt ?? null,
        ],
      );
      if (d.attendees) await writeAttendees(q, d.caseplanId, d.eventId, d.attendees);
      const after = await loadEvent(q, d.caseplanId, d.eventId);
      await auditEvent(q, caller.uid, d.caseplanId, 'event.update', d.eventId, before, after);
      return d.eventId;
    },
  });

  const rsvp = defineCallable({
    name: 'events-rsvp',
    data: EventRsvpData,
    authorize: async ({ caller, q }, d) => {
      await authorizeCaseplan(q, caller.uid, 'caseplans.participate', d.caseplanId, { write: true });
    },
    action: async ({ caller, q }, d) => {
      const event = await loadEvent(q, d.caseplanId, d.eventId);
      if (!event) throw eventNotFound();
      // With attendees set, only the people in those roles answer; an event without attendees is open to all.
      const { rows } = await q.query<{ role_id: string | null }>(
        'SELECT role_id FROM caseplan_users WHERE caseplan_id = $1 AND user_id = $2 AND active',
        [d.caseplanId, caller.uid],
      );
      const roleId = rows[0]?.role_id;
      if (Object.keys(event.attendees).length > 0 && !(roleId && event.attendees[roleId])) {
        throw new ProductError('permission-denied', 'User is not invited to this event');
      }
      await q.query(
        `INSERT INTO event_rsvps (event_id, user_id, response) VALUES ($1, $2, $3)
         ON CONFLICT (event_id, user_id) DO UPDATE SET response = EXCLUDED.response, updated = now()`,
        [d.eventId, caller.uid, d.response],
      );
      return (await loadEvent(q, d.caseplanId, d.eventId)) ?? null;
    },
  });

  return [create, update, rsvp];
}

async function auditEvent(
  q: Queryable,
  actorId: string,
  caseplanId: string,
  action: string,
  eventId: string,
  before: unknown,
  after: unknown,
): Promise<void> {
  const { rows } = await q.query<{ organization_id: string }>(
    'SELECT organization_id FROM caseplans WHERE id = $1',
    [caseplanId],
  );
  await recordAudit(q, {
    organizationId: rows[0]?.organization_id ?? '',
    caseplanId,
    actorId,
    action,
    entity: 'event',
    entityId: eventId,
    before,
    after,
  });
}
