import type { AuditPage } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';

interface AuditRow {
  id: number;
  organization_id: string;
  caseplan_id: string | null;
  actor_id: string;
  actor_name: string | null;
  action: string;
  entity: string;
  entity_id: string;
  before: unknown;
  after: unknown;
  at: Date;
}

export const AUDIT_PAGE_SIZE = 50;

/**
 * `GET /api/organizations/{id}/audit`: newest first, keyset-paged by id (`before`). The caller has been
 * authorized for the organization (`organizations.audit`).
 */
export async function readAudit(
  q: Queryable,
  organizationId: string,
  before?: number,
  limit = AUDIT_PAGE_SIZE,
): Promise<AuditPage> {
  const { rows } = await q.query<AuditRow>(
    `SELECT a.id, a.organization_id, a.caseplan_id, a.actor_id, COALESCE(p.name, u.name) AS actor_name,
            a.action, a.entity, a.entity_id, a.before, a.after, a.at
       FROM audit_log a
       LEFT JOIN "user" u ON u.id = a.actor_id
       LEFT JOIN profiles p ON p.id = a.actor_id
      WHERE a.organization_id = $1 AND ($2::bigint IS NULL OR a.id < $2)
      ORDER BY a.id DESC
      LIMIT $3`,
    [organizationId, before ?? null, limit + 1],
  );
  const page = rows.slice(0, limit);
  return {
    entries: page.map((r) => ({
      id: Number(r.id),
      organization: r.organization_id,
      caseplan: r.caseplan_id,
      actor: r.actor_id,
      actorName: r.actor_name,
      action: r.action,
      entity: r.entity,
      entityId: r.entity_id,
      before: r.before ?? null,
      after: r.after ?? null,
      at: new Date(r.at).toISOString(),
    })),
    next: rows.length > limit ? Number(page[page.length - 1]?.id) : null,
  };
}
