import { useState } from 'react';
import { Link } from 'react-router-dom';
import { callFunction } from '../api/http';
import { ActionForm, Field, text } from '../caseplans/ui';
import { t } from '../i18n/t';
import { caseplanSession } from '../session/caseplanSession';
import './organization-members.css';

/**
 * For super-admins (`me.policies.createOrganization`): a new organization and, optionally, its first admin by
 * e-mail (added at once when they have an account, else invited by mail). `organizations-create` (issue 15).
 */
export function CreateOrganization({ onCreated }: { onCreated: () => void }) {
  const [created, setCreated] = useState<{ id: string; name: string } | null>(null);
  return (
    <section className="org-create" aria-labelledby="org-create-title">
      <h2 id="org-create-title">{t('onboarding.createOrg.title')}</h2>
      <p className="muted">{t('onboarding.createOrg.intro')}</p>
      {created ? (
        <p role="status" className="org-feedback org-feedback-saved">
          {t('onboarding.createOrg.done', { name: created.name })}{' '}
          <Link to={`/app/organizations/${encodeURIComponent(created.id)}`}>
            {t('onboarding.createOrg.open', { name: created.name })}
          </Link>
        </p>
      ) : null}
      <ActionForm
        label={t('onboarding.createOrg.title')}
        submit={t('onboarding.createOrg.submit')}
        onSubmit={async (form) => {
          const name = text(form, 'name');
          const adminEmail = text(form, 'adminEmail');
          setCreated(null);
          const id = await callFunction<string>('organizations-create', {
            name,
            ...(adminEmail ? { adminEmail } : {}),
          });
          setCreated({ id, name });
          // The session's organization list (and so the switcher) picks the new one up.
          void caseplanSession.reload();
          onCreated();
        }}
      >
        <Field label={t('onboarding.createOrg.name')}>
          <input name="name" required autoComplete="off" />
        </Field>
        <Field label={t('onboarding.createOrg.adminEmail')}>
          <input name="adminEmail" type="email" autoComplete="off" />
        </Field>
      </ActionForm>
    </section>
  );
}
