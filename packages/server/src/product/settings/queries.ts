import type { SettingsDoc, SettingsDocName } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { loadViewer } from '../organizations/queries.js';
import { presentSettingsDoc } from './visibility.js';

interface SettingsRow {
  schema: Record<string, unknown>;
  created: Date;
  updated: Date;
}

/** The stored schema of a settings document, or undefined when the organization has not set one. */
export async function loadSettingsSchema(
  q: Queryable,
  organizationId: string,
  doc: SettingsDocName,
): Promise<Record<string, unknown> | undefined> {
  const row = await loadSettingsRow(q, organizationId, doc);
  return row?.schema;
}

async function loadSettingsRow(
  q: Queryable,
  organizationId: string,
  doc: SettingsDocName,
): Promise<SettingsRow | undefined> {
  const { rows } = await q.query<SettingsRow>(
    'SELECT schema, created, updated FROM organization_settings WHERE organization_id = $1 AND doc = $2',
    [organizationId, doc],
  );
  return rows[0];
}

/** A settings document as the API answers it; an unset document is an empty object schema. */
export async function readSettingsDoc(
  q: Queryable,
  organizationId: string,
  doc: SettingsDocName,
): Promise<SettingsDoc> {
  const row = await loadSettingsRow(q, organizationId, doc);
  return {
    organization: organizationId,
    doc,
    schema: row?.schema ?? { type: 'object', properties: {} },
    created: row ? new Date(row.created).toISOString() : null,
    updated: row ? new Date(row.updated).toISOString() : null,
  };
}

/**
 * A settings document as `uid` may read it (`settings-get`, `GET /api/organizations/{id}/settings/{doc}`): staff-only
 * fields are gone for clients and guests. The caller has been authorized (`settings.read`).
 */
export async function readSettingsDocFor(
  q: Queryable,
  uid: string,
  organizationId: string,
  doc: SettingsDocName,
): Promise<SettingsDoc> {
  return presentSettingsDoc(await readSettingsDoc(q, organizationId, doc), await loadViewer(q, uid));
}

/** Writes the document (creating it, or replacing its schema and stamping `updated`). */
export async function writeSettingsDoc(
  q: Queryable,
  organizationId: string,
  doc: SettingsDocName,
  schema: Record<string, unknown>,
): Promise<void> {
  await q.query(
    `INSERT INTO organization_settings (organization_id, doc, schema) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, doc) DO UPDATE SET schema = EXCLUDED.schema, updated = now()`,
    [organizationId, doc, JSON.stringify(schema)],
  );
}
