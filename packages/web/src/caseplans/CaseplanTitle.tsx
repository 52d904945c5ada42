import { useRef, useState } from 'react';
import type { Caseplan } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { InlineForm } from './InlineForm';
import { Field, text } from './ui';

/** The plan's name as the page heading, renamed in place (`caseplans-update`) by those who may edit the plan. */
export function CaseplanTitle({ plan, onChange }: { plan: Caseplan; onChange: () => void }) {
  const [renaming, setRenaming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setRenaming(false);
    requestAnimationFrame(() => button.current?.focus());
  };
  if (renaming) {
    return (
      <InlineForm
        className="cp-title-form"
        label={t('domain.plan.rename')}
        success={t('domain.plan.renamed')}
        onCancel={close}
        onDone={() => {
          close();
          onChange();
        }}
        onSubmit={(form) =>
          callFunction('caseplans-update', { caseplanId: plan.id, name: text(form, 'name') })
        }
      >
        <Field label={t('domain.plan.name')}>
          <input name="name" required maxLength={200} defaultValue={plan.name} />
        </Field>
      </InlineForm>
    );
  }
  return (
    <div className="cp-title">
      <h1 id="caseplan-title">
        {plan.name}
        {plan.closed ? <span className="tag"> {t('domain.caseplans.closedTag')}</span> : null}
      </h1>
      {plan.policies.edit && !plan.closed ? (
        <button
          ref={button}
          type="button"
          className="button button-small"
          aria-label={t('domain.plan.rename')}
          onClick={() => setRenaming(true)}
        >
          {t('domain.people.rename')}
        </button>
      ) : null}
    </div>
  );
}
