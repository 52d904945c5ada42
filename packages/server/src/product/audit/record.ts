import type { Queryable } from '../../platform/db.js';

/** One change, as the audit log keeps it. */
export interface AuditChange {
  organizationId: string;
  caseplanId?: string | null;
  actorId: string;
  /** What happened, e.g. `caseplan.close`, `role.update`, `organization.user.setType`. */
  action: string;
  /** The kind of object changed: organization, caseplan, role, team, membership, setting, event, invite. */
  entity: string;
  entityId: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Appends one entry to the audit log, in the caller's transaction (so a rolled-back change leaves no entry).
 * The table refuses UPDATE, DELETE and TRUNCATE: this is the only way in, and nothing comes out but reads.
 */
export async function recordAudit(q: Queryable, change: AuditChange): Promise<void> {
  await q.query(
    `INSERT INTO audit_log (organization_id, caseplan_id, actor_id, action, entity, entity_id, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      change.organizationId,
      change.caseplanId ?? null,
      change.actorId,
      change.action,
      change.entity,
      change.entityId,
      change.before === undefined ? null : JSON.stringify(change.before),
      change.after === undefined ? null : JSON.stringify(change.after),
    ],
  );
}
