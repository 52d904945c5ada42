import { SettingsGetData, SettingsSetData } from '@caseroom/protocol';
import { recordAudit } from '../audit/record.js';
import { authorizeOrganization } from '../callables/authorize.js';
import { defineCallable } from '../callables/registry.js';
import { checkSettingsSchema } from './json-schema.js';
import { readSettingsDoc, readSettingsDocFor, writeSettingsDoc } from './queries.js';
import { checkFieldVisibility } from './visibility.js';

/** `settings-get` and `settings-set`: the organization's field schemas (product-spec §3, §7). */
export function settingsCallables() {
  const get = defineCallable({
    name: 'settings-get',
    data: SettingsGetData,
    authorize: async ({ caller, q }, d) => {
      await authorizeOrganization(q, caller.uid, 'settings.read', d.organizationId);
    },
    action: ({ caller, q }, d) => readSettingsDocFor(q, caller.uid, d.organizationId, d.doc),
  });

  const set = defineCallable({
    name: 'settings-set',
    data: SettingsSetData,
    authorize: async ({ caller, q }, d) => {
      await authorizeOrganization(q, caller.uid, 'settings.write', d.organizationId);
    },
    action: async ({ caller, q }, d) => {
      checkSettingsSchema(d.schema);
      checkFieldVisibility(d.schema);
      const before = await readSettingsDoc(q, d.organizationId, d.doc);
      await writeSettingsDoc(q, d.organizationId, d.doc, d.schema);
      const after = await readSettingsDoc(q, d.organizationId, d.doc);
      await recordAudit(q, {
        organizationId: d.organizationId,
        actorId: caller.uid,
        action: 'setting.set',
        entity: 'setting',
        entityId: d.doc,
        before: before.created ? before.schema : null,
        after: after.schema,
      });
      return after;
    },
  });
  return [get, set];
}
