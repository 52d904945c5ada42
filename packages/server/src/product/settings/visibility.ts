import {
  FIELD_VISIBILITY_KEYWORD,
  FieldVisibility,
  type SettingsDoc,
  type SettingsDocName,
} from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { ProductError } from '../errors.js';
import { canSeeField, type CaseplanFacts, type Viewer } from '../policies.js';

/**
 * Field visibility (`"x-visibility": "staff"` on a property of a `caseplan-fields` / `client-fields` schema): which
 * fields are staff-only, and the presenters that leave them out for a viewer who may not see them. Who may see is
 * the policy's (`canSeeField`); this file only reads schemas and removes what the policy refuses.
 *
 * Only top-level properties carry a visibility (a custom field is one property); a nested `x-visibility` is not
 * looked at.
 */

type Schema = Record<string, unknown>;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function propertiesOf(schema: Schema): Record<string, unknown> {
  return isRecord(schema.properties) ? schema.properties : {};
}

/**
 * The visibility of one property. Absent is `everyone`; a value that is not a known visibility counts as `staff`
 * (fail closed: a typo must not publish a field; `settings-set` refuses such values anyway).
 */
export function visibilityOf(property: unknown): FieldVisibility {
  if (!isRecord(property) || !(FIELD_VISIBILITY_KEYWORD in property)) return 'everyone';
  const parsed = FieldVisibility.safeParse(property[FIELD_VISIBILITY_KEYWORD]);
  return parsed.success ? parsed.data : 'staff';
}

/** Names of the schema's staff-only fields. */
export function staffOnlyFields(schema: Schema | undefined): Set<string> {
  const names = new Set<string>();
  if (!schema) return names;
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    if (visibilityOf(property) === 'staff') names.add(name);
  }
  return names;
}

/** `settings-set` check: every `x-visibility` on a field is one of {@link FieldVisibility}'s values. */
export function checkFieldVisibility(schema: Schema): void {
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    if (!isRecord(property) || !(FIELD_VISIBILITY_KEYWORD in property)) continue;
    if (!FieldVisibility.safeParse(property[FIELD_VISIBILITY_KEYWORD]).success) {
      throw new ProductError(
        'invalid-argument',
        `Invalid schema: "${FIELD_VISIBILITY_KEYWORD}" of "${name}" must be one of ${FieldVisibility.options.join(', ')}`,
      );
    }
  }
}

/**
 * Custom values as the viewer may see them: values of staff-only fields dropped unless the policy lets the viewer
 * see staff fields (on this case plan, when given).
 */
export function presentCustomValues(
  custom: Record<string, unknown>,
  staffOnly: ReadonlySet<string>,
  viewer: Viewer,
  organizationId: string,
  caseplan?: CaseplanFacts,
): Record<string, unknown> {
  if (staffOnly.size === 0 || canSeeField(viewer, organizationId, 'staff', caseplan)) return custom;
  return Object.fromEntries(Object.entries(custom).filter(([name]) => !staffOnly.has(name)));
}

/**
 * A settings document as the viewer may read it: for a viewer who may not see staff fields, the staff-only
 * properties are gone, and so are their entries in `required` (so the form does not ask for what it cannot show).
 */
export function presentSettingsDoc(doc: SettingsDoc, viewer: Viewer): SettingsDoc {
  const hidden = staffOnlyFields(doc.schema);
  if (hidden.size === 0 || canSeeField(viewer, doc.organization, 'staff')) return doc;
  const properties = Object.fromEntries(
    Object.entries(propertiesOf(doc.schema)).filter(([name]) => !hidden.has(name)),
  );
  const schema: Schema = { ...doc.schema, properties };
  if (Array.isArray(doc.schema.required)) {
    schema.required = doc.schema.required.filter((name) => !(typeof name === 'string' && hidden.has(name)));
  }
  return { ...doc, schema };
}

/** The staff-only field names of one settings document for each of these organizations (none set: empty). */
export async function loadStaffOnlyFields(
  q: Queryable,
  organizationIds: readonly string[],
  doc: SettingsDocName,
): Promise<Map<string, Set<string>>> {
  const ids = [...new Set(organizationIds)];
  const out = new Map<string, Set<string>>(ids.map((id) => [id, new Set<string>()]));
  if (ids.length === 0) return out;
  const { rows } = await q.query<{ organization_id: string; schema: Schema }>(
    'SELECT organization_id, schema FROM organization_settings WHERE organization_id = ANY($1) AND doc = $2',
    [ids, doc],
  );
  for (const row of rows) out.set(row.organization_id, staffOnlyFields(row.schema));
  return out;
}
