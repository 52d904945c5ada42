import { SettingsDocName } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../platform/db.js';
import { readAudit } from '../audit/reads.js';
import { authorizeCaseplan, authorizeOrganization } from '../callables/authorize.js';
import { readCaseplanStats } from '../caseplans/stats.js';
import { loadContacts } from '../contacts/queries.js';
import { loadEvents } from '../events/queries.js';
import { readMembers } from '../organizations/members.js';
import { readSettingsDocFor } from '../settings/queries.js';
import type { Authenticate } from './authenticate.js';

const IdParams = z.object({ id: z.string().min(1) });
const SettingsParams = z.object({ id: z.string().min(1), doc: SettingsDocName });
const AuditQuery = z.object({ before: z.coerce.number().int().positive().optional() });

/**
 * The domain reads of issue 4: contacts, a case plan's events and statistics, an organization's members,
 * settings documents and audit log. Each: authenticate -> validate -> authorize (policy) -> read, in one
 * transaction so the check and the read see the same state.
 */
export function domainRoutes(http: FastifyInstance, db: Db, authenticate: Authenticate): void {
  http.get('/api/contacts', async (req) => {
    const { uid } = await authenticate(req);
    return db.tx((q) => loadContacts(q, uid));
  });

  http.get('/api/caseplans/:id/events', async (req) => {
    const { uid } = await authenticate(req);
    const { id } = IdParams.parse(req.params);
    return db.tx(async (q) => {
      await authorizeCaseplan(q, uid, 'caseplans.read', id);
      return loadEvents(q, id);
    });
  });

  http.get('/api/caseplans/:id/stats', async (req) => {
    const { uid } = await authenticate(req);
    const { id } = IdParams.parse(req.params);
    return db.tx(async (q) => {
      await authorizeCaseplan(q, uid, 'caseplans.stats', id);
      return readCaseplanStats(q, id);
    });
  });

  http.get('/api/organizations/:id/members', async (req) => {
    const { uid } = await authenticate(req);
    const { id } = IdParams.parse(req.params);
    return db.tx(async (q) => {
      await authorizeOrganization(q, uid, 'organizations.manage', id);
      return readMembers(q, id);
    });
  });

  http.get('/api/organizations/:id/audit', async (req) => {
    const { uid } = await authenticate(req);
    const { id } = IdParams.parse(req.params);
    const { before } = AuditQuery.parse(req.query);
    return db.tx(async (q) => {
      await authorizeOrganization(q, uid, 'organizations.audit', id);
      return readAudit(q, id, before);
    });
  });

  http.get('/api/organizations/:id/settings/:doc', async (req) => {
    const { uid } = await authenticate(req);
    const { id, doc } = SettingsParams.parse(req.params);
    return db.tx(async (q) => {
      await authorizeOrganization(q, uid, 'settings.read', id);
      return readSettingsDocFor(q, uid, id, doc);
    });
  });
}
