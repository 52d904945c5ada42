import { useParams } from 'react-router-dom';
import type { Caseplan, Contact, SettingsDoc } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { CaseplanEvents } from './CaseplanEvents';
import { CaseplanPeople } from './CaseplanPeople';
import { CustomFieldsForm } from './CustomFieldsForm';
import { ActionForm, Field, LoadState, text } from './ui';
import { useLoad } from './useLoad';

/** `/app/caseplans/:id`: people with roles and teams, custom fields, events, close and reopen. */
export function CaseplanPage() {
  const { id = '' } = useParams();
  const caseplan = useLoad<Caseplan>(`/api/caseplans/${encodeURIComponent(id)}`);
  return (
    <section className="domain-page" aria-labelledby="caseplan-title">
      <LoadState state={caseplan} onRetry={caseplan.reload}>
        {(plan) => <CaseplanView plan={plan} reload={caseplan.reload} />}
      </LoadState>
    </section>
  );
}

function CaseplanView({ plan, reload }: { plan: Caseplan; reload: () => void }) {
  const contacts = useLoad<Contact[]>('/api/contacts');
  const schema = useLoad<SettingsDoc>(`/api/organizations/${plan.organization}/settings/caseplan-fields`);
  const people = contacts.status === 'ready' ? contacts.data : [];
  const nameOf = (uid: string) => people.find((c) => c.id === uid)?.name ?? uid;
  return (
    <>
      <h1 id="caseplan-title">
        {plan.name}
        {plan.closed ? <span className="tag"> {t('domain.caseplans.closedTag')}</span> : null}
      </h1>
      {plan.closed ? (
        <p role="status">
          {t('domain.caseplan.readOnly')}{' '}
          {plan.closing
            ? t('domain.caseplan.closedBy', {
                date: new Date(plan.closing.at).toLocaleString(),
                reason: plan.closing.reason ?? '—',
              })
            : null}
        </p>
      ) : null}
      <CaseplanPeople plan={plan} contacts={people} nameOf={nameOf} onChange={reload} />
      <h2>{t('domain.caseplan.custom')}</h2>
      <LoadState state={schema} onRetry={schema.reload}>
        {(doc) => <CustomFieldsForm plan={plan} schema={doc.schema} onSaved={reload} />}
      </LoadState>
      <CaseplanEvents plan={plan} nameOf={nameOf} />
      <h2>{plan.closed ? t('domain.caseplan.reopen') : t('domain.caseplan.close')}</h2>
      <ActionForm
        label={plan.closed ? t('domain.caseplan.reopen') : t('domain.caseplan.close')}
        submit={plan.closed ? t('domain.caseplan.reopen') : t('domain.caseplan.close')}
        onSubmit={async (form) => {
          const reason = text(form, 'reason');
          await callFunction(plan.closed ? 'caseplans-reopen' : 'caseplans-close', {
            caseplanId: plan.id,
            ...(reason ? { reason } : {}),
          });
          reload();
        }}
      >
        <Field label={t('domain.caseplan.reason')}>
          <input name="reason" maxLength={2000} />
        </Field>
      </ActionForm>
    </>
  );
}
