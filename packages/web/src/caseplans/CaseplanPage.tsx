import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import type { Caseplan, Contact, SettingsDoc } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { dates } from '../i18n/useDates';
import { caseplanSession } from '../session/caseplanSession';
import { useSession } from '../session/useSession';
import { showToast } from '../ui/toast';
import { CaseplanChats } from './CaseplanChats';
import { CaseplanEvents } from './CaseplanEvents';
import { CaseplanPeople } from './CaseplanPeople';
import { CaseplanStats } from './CaseplanStats';
import { CaseplanTitle } from './CaseplanTitle';
import { CustomFieldsForm } from './CustomFieldsForm';
import { ActionForm, Field, LoadState, text } from './ui';
import { useLoad } from './useLoad';

/**
 * Opening a plan's page opens the plan (product-spec §4): once the session holds it (waiting at most
 * 10000 ms), a person on the plan selects it, which records lastOpenedAt. A plan that never loads is the
 * toast 'Caseplan was not loaded into the session'; a refused selection ('User has no role on caseplan', ...)
 * is the store's toast.
 */
function useOpenCaseplan(id: string, uid: string | null) {
  useEffect(() => {
    let live = true;
    void caseplanSession.waitForCaseplan(id).then((loaded) => {
      if (!live) return;
      const state = caseplanSession.getSnapshot();
      if (!loaded) {
        showToast(t('session.error.caseplanNotLoaded'));
        return;
      }
      const plan = state.status === 'ready' ? state.caseplans.find((c) => c.id === id) : undefined;
      if (uid && plan?.activeUsers.includes(uid)) void caseplanSession.selectCaseplan(id);
    });
    return () => {
      live = false;
    };
  }, [id, uid]);
}

/** `/app/caseplans/:id`: people with roles and teams, custom fields, events, close and reopen. */
export function CaseplanPage() {
  const { id = '' } = useParams();
  const caseplan = useLoad<Caseplan>(`/api/caseplans/${encodeURIComponent(id)}`);
  const session = useSession();
  useOpenCaseplan(id, session.status === 'signed-in' ? session.me.uid : null);
  return (
    // Focusable: the page scrolls in its own column, and a viewer with nothing to edit (a client) must still be
    // able to scroll it from the keyboard (axe scrollable-region-focusable).
    <section className="domain-page" aria-labelledby="caseplan-title" tabIndex={0}>
      <LoadState state={caseplan} onRetry={caseplan.reload}>
        {(plan) => <CaseplanView plan={plan} reload={caseplan.reload} />}
      </LoadState>
    </section>
  );
}

function CaseplanView({ plan, reload }: { plan: Caseplan; reload: () => void }) {
  const contacts = useLoad<Contact[]>('/api/contacts');
  const schema = useLoad<SettingsDoc>(`/api/organizations/${plan.organization}/settings/caseplan-fields`);
  // What the viewer may do comes with the plan (`policies`, decided by the server's permission table).
  const canEdit = plan.policies.edit;
  const canClose = plan.policies.close;
  const people = contacts.status === 'ready' ? contacts.data : [];
  const nameOf = (uid: string) => people.find((c) => c.id === uid)?.name ?? uid;
  return (
    <>
      <CaseplanTitle plan={plan} onChange={reload} />
      {plan.closed ? (
        <p role="status">
          {t('domain.caseplan.readOnly')}{' '}
          {plan.closing
            ? t('domain.caseplan.closedBy', {
                date: dates().dateTime(plan.closing.at),
                reason: plan.closing.reason ?? '—',
              })
            : null}
        </p>
      ) : null}
      <CaseplanPeople plan={plan} contacts={people} nameOf={nameOf} onChange={reload} canEdit={canEdit} />
      <h2>{t('domain.caseplan.custom')}</h2>
      <LoadState state={schema} onRetry={schema.reload}>
        {(doc) => (
          <CustomFieldsForm
            key={JSON.stringify(plan.custom)}
            plan={plan}
            schema={doc.schema}
            onSaved={reload}
          />
        )}
      </LoadState>
      <CaseplanChats caseplanId={plan.id} />
      <CaseplanEvents plan={plan} nameOf={nameOf} canEdit={canEdit} />
      {plan.policies.stats ? <CaseplanStats key={plan.updated} plan={plan} nameOf={nameOf} /> : null}
      {canClose ? <CloseForm plan={plan} reload={reload} /> : null}
    </>
  );
}

/** Close with an optional reason, or reopen (product-spec §4 case-plan lifecycle). */
function CloseForm({ plan, reload }: { plan: Caseplan; reload: () => void }) {
  const title = plan.closed ? t('domain.caseplan.reopen') : t('domain.caseplan.close');
  return (
    <section className="domain-section domain-danger" aria-labelledby="caseplan-close-title">
      <h2 id="caseplan-close-title">{title}</h2>
      <p className="muted">
        {plan.closed ? t('domain.caseplan.reopenHint') : t('domain.caseplan.closeHint')}
      </p>
      <ActionForm
        label={title}
        submit={title}
        success={plan.closed ? t('domain.caseplan.reopened') : t('domain.caseplan.closed')}
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
    </section>
  );
}
