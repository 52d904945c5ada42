import crypto from 'node:crypto';
import type { Queryable } from '../../platform/db.js';
import { recordAudit } from '../audit/record.js';
import { ProductError } from '../errors.js';

/**
 * Creates an organization (and its audit entry) in the caller's transaction; answers its id. Shared by
 * `organizations-create` and the first-run setup.
 */
export async function createOrganization(
  q: Queryable,
  actorId: string,
  org: { name: string; eid?: string | undefined },
): Promise<string> {
  const id = crypto.randomUUID();
  const { rowCount } = await q.query(
    'INSERT INTO organizations (id, eid, name) VALUES ($1, $2, $3) ON CONFLICT (eid) DO NOTHING',
    [id, org.eid ?? null, org.name],
  );
  if (rowCount === 0)
    throw new ProductError('already-exists', 'An organization with this eid already exists');
  await recordAudit(q, {
    organizationId: id,
    actorId,
    action: 'organization.create',
    entity: 'organization',
    entityId: id,
    after: { name: org.name, eid: org.eid ?? null },
  });
  return id;
}
