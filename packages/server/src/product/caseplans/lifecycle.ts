import crypto from 'node:crypto';
import {
  CaseplanCloseData,
  CaseplanCreateData,
  CaseplanUpdateCustomData,
  CaseplanUpdateData,
} from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { recordAudit } from '../audit/record.js';
import { authorizeCaseplan, authorizeOrganization } from '../callables/authorize.js';
import { defineCallable } from '../callables/registry.js';
import { ProductError } from '../errors.js';
import { validateCustomFields } from '../settings/json-schema.js';
import { loadSettingsSchema } from '../settings/queries.js';
import { setCaseplanChannelsFrozen } from './chat-links.js';

/** The case plan row as the audit log keeps it. */
async function caseplanSnapshot(q: Queryable, id: string) {
  const { rows } = await q.query<{ name: string; custom: unknown; closed: boolean }>(
    'SELECT name, custom, closed FROM caseplans WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

/** Custom fields must match the organization's `caseplan-fields` schema (none set: any object). */
async function checkCustomFields(q: Queryable, organizationId: string, custom: Record<string, unknown>) {
  const schema = await loadSettingsSchema(q, organizationId, 'caseplan-fields');
  if (schema) validateCustomFields(schema, custom);
}

/** `caseplans-create`, `-update`, `-updateCustom`, `-close`, `-reopen` (product-spec §7, issue 4 §5). */
export function caseplanLifecycleCallables() {
  const create = defineCallable({
    name: 'caseplans-create',
    data: CaseplanCreateData,
    authorize: async ({ caller, q }, d) => {
      await authorizeOrganization(q, caller.uid, 'caseplans.create', d.organization);
    },
    action: async ({ caller, q }, d) => {
      const custom = d.custom ?? {};
      await checkCustomFields(q, d.organization, custom);
      const id = crypto.randomUUID();
      await q.query(
        'INSERT INTO caseplans (id, organization_id, name, created_by, custom) VALUES ($1, $2, $3, $4, $5)',
        [id, d.organization, d.name, caller.uid, JSON.stringify(custom)],
      );
      await recordAudit(q, {
        organizationId: d.organization,
        caseplanId: id,
        actorId: caller.uid,
        action: 'caseplan.create',
        entity: 'caseplan',
        entityId: id,
        after: await caseplanSnapshot(q, id),
      });
      return id;
    },
  });

  const update = defineCallable({
    name: 'caseplans-update',
    data: CaseplanUpdateData,
    authorize: async ({ caller, q }, d) => {
      await authorizeCaseplan(q, caller.uid, 'caseplans.edit', d.caseplanId, { write: true });
    },
    action: async ({ caller, q }, d) => {
      const before = await caseplanSnapshot(q, d.caseplanId);
      if (d.name !== undefined) {
        await q.query('UPDATE caseplans SET name = $2, updated = now() WHERE id = $1', [
          d.caseplanId,
          d.name,
        ]);
      }
      await auditCaseplan(q, caller.uid, d.caseplanId, 'caseplan.update', before);
      return null;
    },
  });

  const updateCustom = defineCallable({
    name: 'caseplans-updateCustom',
    data: CaseplanUpdateCustomData,
    authorize: async ({ caller, q }, d) => {
      await authorizeCaseplan(q, caller.uid, 'caseplans.edit', d.caseplanId, { write: true });
    },
    action: async ({ caller, q }, d) => {
      const before = await caseplanSnapshot(q, d.caseplanId);
      // Write with merge: given fields replace, `null` removes a field, the others stay.
      const merged: Record<string, unknown> = { ...(before?.custom as Record<string, unknown>) };
      for (const [k, v] of Object.entries(d.custom)) {
        if (v === null) delete merged[k];
        else merged[k] = v;
      }
      const { rows } = await q.query<{ organization_id: string }>(
        'SELECT organization_id FROM caseplans WHERE id = $1',
        [d.caseplanId],
      );
      await checkCustomFields(q, rows[0]?.organization_id ?? '', merged);
      await q.query('UPDATE caseplans SET custom = $2, updated = now() WHERE id = $1', [
        d.caseplanId,
        JSON.stringify(merged),
      ]);
      await auditCaseplan(q, caller.uid, d.caseplanId, 'caseplan.updateCustom', before);
      return merged;
    },
  });

  const closeOrReopen = (name: 'caseplans-close' | 'caseplans-reopen', closing: boolean) =>
    defineCallable({
      name,
      data: CaseplanCloseData,
      authorize: async ({ caller, q }, d) => {
        await authorizeCaseplan(q, caller.uid, 'caseplans.close', d.caseplanId, {
          write: true,
          allowClosed: true,
        });
      },
      action: async ({ caller, q, chat }, d) => {
        const before = await caseplanSnapshot(q, d.caseplanId);
        if (before?.closed === closing) {
          throw new ProductError(
            'failed-precondition',
            closing ? 'Caseplan is already closed' : 'Caseplan is not closed',
          );
        }
        await q.query('UPDATE caseplans SET closed = $2, updated = now() WHERE id = $1', [
          d.caseplanId,
          closing,
        ]);
        await q.query(
          'INSERT INTO caseplan_closings (caseplan_id, action, by_user, reason) VALUES ($1, $2, $3, $4)',
          [d.caseplanId, closing ? 'close' : 'reopen', caller.uid, d.reason ?? null],
        );
        await auditCaseplan(
          q,
          caller.uid,
          d.caseplanId,
          closing ? 'caseplan.close' : 'caseplan.reopen',
          before,
          {
            reason: d.reason ?? null,
          },
        );
        // In the same transaction: the case plan's channels are frozen ('Archived') or thawed.
        await setCaseplanChannelsFrozen(chat, d.caseplanId, closing);
        return null;
      },
    });

  return [
    create,
    update,
    updateCustom,
    closeOrReopen('caseplans-close', true),
    closeOrReopen('caseplans-reopen', false),
  ];
}

async function auditCaseplan(
  q: Queryable,
  actorId: string,
  caseplanId: string,
  action: string,
  before: unknown,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const after = await caseplanSnapshot(q, caseplanId);
  const { rows } = await q.query<{ organization_id: string }>(
    'SELECT organization_id FROM caseplans WHERE id = $1',
    [caseplanId],
  );
  await recordAudit(q, {
    organizationId: rows[0]?.organization_id ?? '',
    caseplanId,
    actorId,
    action,
    entity: 'caseplan',
    entityId: caseplanId,
    before,
    after: after ? { ...after, ...extra } : null,
  });
}
