import type { RefObject } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Organization } from '@caseroom/protocol';
import { callFunction } from '../../api/http';
import { t } from '../../i18n/t';
import { ActionForm, Field, text } from '../ui';

/**
 * The "New case plan" form, for the organizations whose `policies.createCaseplan` allows it (the page shows it
 * only when there is one; clients and guests never see it). A new plan opens at once.
 */
export function NewCaseplan({
  organizations,
  nameRef,
  titleId,
}: {
  organizations: readonly Organization[];
  nameRef: RefObject<HTMLInputElement | null>;
  titleId: string;
}) {
  const navigate = useNavigate();
  return (
    <section className="home-new" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('domain.caseplans.create')}</h2>
      <ActionForm
        label={t('domain.caseplans.create')}
        submit={t('domain.caseplans.createSubmit')}
        onSubmit={async (form) => {
          const id = await callFunction<string>('caseplans-create', {
            organization: text(form, 'organization'),
            name: text(form, 'name'),
          });
          void navigate(`/app/caseplans/${encodeURIComponent(id)}`);
        }}
      >
        <Field label={t('domain.caseplans.name')}>
          <input name="name" required maxLength={200} ref={nameRef} />
        </Field>
        <Field label={t('domain.caseplans.organization')}>
          <select name="organization" required>
            {organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </Field>
      </ActionForm>
    </section>
  );
}
