import { useEffect, useRef, useState } from 'react';
import type { SettingsDoc, SettingsDocName } from '@caseroom/protocol';
import { callFunction } from '../../api/http';
import { useSaving } from '../../caseplans/feedback';
import { LoadState } from '../../caseplans/ui';
import { useLoad } from '../../caseplans/useLoad';
import { t } from '../../i18n/t';
import { FieldEditor, RawFieldView } from './FieldEditor';
import {
  keyFromLabel,
  modelProblems,
  modelToSchema,
  newField,
  schemaToModel,
  type BuilderField,
} from './fieldModel';
import { FieldsPreview } from './FieldsPreview';
import './fields.css';

const DOCS: readonly SettingsDocName[] = ['caseplan-fields', 'client-fields'];

/**
 * The organization's custom fields, one builder per settings document (case-plan fields, client fields): what
 * replaced editing their JSON Schemas by hand. Shown to viewers whose organization `policies.writeSettings` is
 * true.
 */
export function FieldSchemas({ orgId }: { orgId: string }) {
  return (
    <section className="fb-section" aria-labelledby="fb-title">
      <h2 id="fb-title">{t('domain.fields.title')}</h2>
      <p className="fb-intro">{t('domain.fields.intro')}</p>
      {DOCS.map((doc) => (
        <FieldsBuilder key={doc} orgId={orgId} doc={doc} />
      ))}
    </section>
  );
}

function FieldsBuilder({ orgId, doc }: { orgId: string; doc: SettingsDocName }) {
  const settings = useLoad<SettingsDoc>(`/api/organizations/${orgId}/settings/${doc}`);
  return (
    <LoadState state={settings} onRetry={settings.reload}>
      {(data) => <Builder orgId={orgId} doc={doc} initial={data} />}
    </LoadState>
  );
}

const docTitle = (doc: SettingsDocName) =>
  doc === 'caseplan-fields' ? t('domain.fields.caseplanFields') : t('domain.fields.clientFields');

function Builder({ orgId, doc, initial }: { orgId: string; doc: SettingsDocName; initial: SettingsDoc }) {
  const [saved, setSaved] = useState(() => schemaToModel(initial.schema));
  const [model, setModel] = useState(saved);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const [showProblems, setShowProblems] = useState(false);
  const saving = useSaving();
  const rootRef = useRef<HTMLDivElement>(null);
  const titleId = `fb-${doc}`;
  const dirty = JSON.stringify(modelToSchema(model)) !== JSON.stringify(modelToSchema(saved));
  const problems = modelProblems(model);
  const savedTypes = new Map(
    saved.fields.flatMap((f) => (f.kind === 'field' ? [[f.key, f.type] as const] : [])),
  );

  // Leaving the page with unsaved fields asks first (the browser's own prompt).
  useEffect(() => {
    if (!dirty) return undefined;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // After "Add field" or a move, focus follows the field (its name input, or the button pressed again).
  useEffect(() => {
    if (!focusKey) return;
    rootRef.current?.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus();
    setFocusKey(null);
  }, [focusKey, model]);

  const update = (key: string, change: Partial<BuilderField>) =>
    setModel((m) => ({
      ...m,
      fields: m.fields.map((f) => {
        if (f.key !== key || f.kind !== 'field') return f;
        const next = { ...f, ...change };
        // Until the field is saved its key follows its name; afterwards it stays, so stored values keep theirs.
        if (f.isNew && change.label !== undefined) {
          const taken = new Set(m.fields.filter((o) => o.key !== key).map((o) => o.key));
          next.key = keyFromLabel(change.label, taken);
        }
        return next;
      }),
    }));
  const move = (index: number, by: -1 | 1, focus: string) => {
    setModel((m) => {
      const fields = [...m.fields];
      const [field] = fields.splice(index, 1);
      if (!field) return m;
      fields.splice(index + by, 0, field);
      return { ...m, fields };
    });
    setFocusKey(focus);
  };
  const remove = (index: number) => {
    setModel((m) => ({ ...m, fields: m.fields.filter((_, i) => i !== index) }));
    setFocusKey('add');
  };
  const add = () => {
    const field = newField(model);
    setModel((m) => ({ ...m, fields: [...m.fields, field] }));
    setFocusKey(`${field.key}:label`);
  };
  const save = async () => {
    if (problems.length > 0) {
      setShowProblems(true);
      return;
    }
    await saving.run(
      async () => {
        const result = await callFunction<SettingsDoc>('settings-set', {
          organizationId: orgId,
          doc,
          schema: modelToSchema(model),
        });
        const next = schemaToModel(result.schema);
        setSaved(next);
        setModel(next);
        setShowProblems(false);
      },
      { success: t('domain.fields.saved', { doc: docTitle(doc) }) },
    );
  };
  const discard = () => {
    setModel(saved);
    setShowProblems(false);
    saving.clear();
  };
  const problemOf = (key: string) => (showProblems ? problems.filter((p) => p.key === key) : []);

  return (
    <div className="fb-doc" role="group" aria-labelledby={titleId} ref={rootRef}>
      <div className="fb-head">
        <h3 id={titleId}>{docTitle(doc)}</h3>
        <p className="muted">
          {doc === 'caseplan-fields' ? t('domain.fields.caseplanHint') : t('domain.fields.clientHint')}
        </p>
      </div>
      {Object.keys(model.rootExtra).length > 0 ? (
        <p className="fb-note">
          {t('domain.fields.rootKept', { keywords: Object.keys(model.rootExtra).join(', ') })}
        </p>
      ) : null}
      {model.fields.length === 0 ? (
        <p className="fb-empty">{t('domain.fields.empty')}</p>
      ) : (
        <ol className="fb-list" aria-label={t('domain.fields.listLabel', { doc: docTitle(doc) })}>
          {model.fields.map((field, index) => (
            <li key={field.kind === 'field' && field.isNew ? `new-${index}` : field.key} className="fb-item">
              {field.kind === 'field' ? (
                <FieldEditor
                  field={field}
                  savedType={savedTypes.get(field.key)}
                  position={index + 1}
                  count={model.fields.length}
                  problems={problemOf(field.key).map((p) => p.problem)}
                  onChange={(change) => update(field.key, change)}
                  onMove={(by, focus) => move(index, by, focus)}
                  onRemove={() => remove(index)}
                />
              ) : (
                <RawFieldView
                  field={field}
                  position={index + 1}
                  count={model.fields.length}
                  onMove={(by, focus) => move(index, by, focus)}
                  onRemove={() => remove(index)}
                />
              )}
            </li>
          ))}
        </ol>
      )}
      <div className="fb-add">
        <button type="button" className="button" data-focus-key="add" onClick={add}>
          <span aria-hidden="true">+ </span>
          {t('domain.fields.add')}
        </button>
      </div>
      <FieldsPreview model={model} title={docTitle(doc)} />
      <div className="fb-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={saving.busy || !dirty}
          onClick={() => void save()}
        >
          {saving.busy ? t('domain.edit.saving') : t('domain.fields.save', { doc: docTitle(doc) })}
        </button>
        {dirty ? (
          <>
            <button type="button" className="button" disabled={saving.busy} onClick={discard}>
              {t('domain.fields.discard')}
            </button>
            <span className="fb-dirty">{t('domain.fields.unsaved')}</span>
          </>
        ) : null}
        {showProblems && problems.length > 0 ? (
          <p role="alert" className="inline-error">
            {t('domain.fields.fixProblems')}
          </p>
        ) : null}
        {saving.error ? (
          <p role="alert" className="inline-error">
            {t('domain.edit.refused', { message: saving.error })}
          </p>
        ) : null}
      </div>
    </div>
  );
}
