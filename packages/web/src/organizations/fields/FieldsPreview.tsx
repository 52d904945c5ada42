import { useState } from 'react';
import { CustomFieldInput } from '../../caseplans/CustomFieldInput';
import type { PropertySchema } from '../../caseplans/customFields';
import { t } from '../../i18n/t';
import { fieldSchema, type FieldsModel } from './fieldModel';

/**
 * The fields as people will fill them in on a case plan (the same controls as the case-plan form), updated as
 * the builder changes; typing here saves nothing.
 */
export function FieldsPreview({ model, title }: { model: FieldsModel; title: string }) {
  const label = t('domain.fields.preview', { doc: title });
  // Rendered only while open: closed, its labels would double the builder's for assistive tech and tests.
  const [open, setOpen] = useState(false);
  return (
    <details className="fb-preview" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{label}</summary>
      {!open ? null : model.fields.length === 0 ? (
        <p className="muted">{t('domain.fields.previewEmpty')}</p>
      ) : (
        <form className="cf-grid" aria-label={label} onSubmit={(e) => e.preventDefault()}>
          {model.fields.map((field, index) => {
            const prop = (field.kind === 'field' ? fieldSchema(field) : field.schema) as PropertySchema;
            const type = field.kind === 'field' ? field.type : 'raw';
            return (
              <CustomFieldInput
                key={`${index}-${type}-${field.kind === 'field' ? field.options.join('|') : ''}`}
                name={`preview-${field.key}`}
                prop={typeof prop === 'object' && prop !== null ? prop : {}}
                value={undefined}
                required={field.required}
              />
            );
          })}
        </form>
      )}
    </details>
  );
}
