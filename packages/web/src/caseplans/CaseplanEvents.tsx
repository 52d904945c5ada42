import type { Caseplan, CaseplanEvent } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { dates } from '../i18n/useDates';
import { useSession } from '../session/useSession';
import { EditEventForm } from './CaseplanEditForms';
import { ActionForm, Field, LoadState, text } from './ui';
import { useSaving } from './feedback';
import { useLoad } from './useLoad';

const RESPONSES = ['yes', 'no', 'maybe'] as const;

/** The case plan's events, soonest first, with RSVP buttons and (while open) a form to add one. */
export function CaseplanEvents(props: {
  plan: Caseplan;
  nameOf: (uid: string) => string;
  /** Whether the viewer may edit the plan (org admin or team member on it). */
  canEdit: boolean;
}) {
  const { plan, nameOf, canEdit } = props;
  const events = useLoad<CaseplanEvent[]>(`/api/caseplans/${plan.id}/events`);
  const session = useSession();
  const me = session.status === 'signed-in' ? session.me.uid : null;
  // RSVP is for people on the plan: the plan's `participate` policy says so, decided by the server.
  const onPlan = plan.policies.participate;
  return (
    <>
      <h2>{t('domain.caseplan.events')}</h2>
      <LoadState state={events} onRetry={events.reload}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">
              {canEdit && !plan.closed ? t('domain.events.noneEdit') : t('domain.caseplan.noEvents')}
            </p>
          ) : (
            <ul className="domain-list">
              {list.map((event) => {
                const answers = Object.values(event.rsvp);
                const count = (r: string) => String(answers.filter((a) => a.response === r).length);
                return (
                  <li key={event.id}>
                    <strong>{event.title}</strong> — {dates().dateTime(event.startsAt)}{' '}
                    <span className="muted">
                      {t('domain.caseplan.answers', {
                        yes: count('yes'),
                        no: count('no'),
                        maybe: count('maybe'),
                      })}
                    </span>
                    {Object.entries(event.rsvp).map(([uid, a]) => (
                      <span key={uid} className="muted">
                        {' '}
                        · {nameOf(uid)}: {a.response}
                      </span>
                    ))}
                    {event.location ? <span className="muted"> · {event.location}</span> : null}
                    {event.description ? <p className="muted">{event.description}</p> : null}
                    {canEdit && !plan.closed ? (
                      <EditEventForm key={event.updated} plan={plan} event={event} onSaved={events.reload} />
                    ) : null}
                    {onPlan && !plan.closed ? (
                      <RsvpButtons plan={plan} event={event} me={me} onDone={events.reload} />
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )
        }
      </LoadState>
      {plan.closed || !canEdit ? null : (
        <ActionForm
          label={t('domain.caseplan.addEvent')}
          submit={t('domain.caseplan.addEvent')}
          success={t('domain.events.added')}
          onSubmit={async (form) => {
            await callFunction('events-create', {
              caseplanId: plan.id,
              title: text(form, 'title'),
              startsAt: dates().fromInput(text(form, 'startsAt')),
            });
            events.reload();
          }}
        >
          <Field label={t('domain.caseplan.eventTitle')}>
            <input name="title" required maxLength={200} />
          </Field>
          <Field label={t('domain.caseplan.eventStart')}>
            <input name="startsAt" type="datetime-local" required />
          </Field>
        </ActionForm>
      )}
    </>
  );
}

/** Yes / no / maybe for one event (`events-rsvp`): disabled while saving, the answer confirmed or refused. */
function RsvpButtons(props: { plan: Caseplan; event: CaseplanEvent; me: string | null; onDone: () => void }) {
  const { plan, event, me, onDone } = props;
  const saving = useSaving();
  const answer = async (response: (typeof RESPONSES)[number]) => {
    const ok = await saving.run(
      () => callFunction('events-rsvp', { caseplanId: plan.id, eventId: event.id, response }),
      { success: t('domain.events.answered', { title: event.title }), toastError: true },
    );
    if (ok) onDone();
  };
  return (
    <div role="group" aria-label={t('domain.caseplan.rsvp', { title: event.title })} aria-busy={saving.busy}>
      {RESPONSES.map((response) => (
        <button
          key={response}
          type="button"
          className="button button-small"
          disabled={saving.busy}
          aria-pressed={me !== null && event.rsvp[me]?.response === response}
          onClick={() => void answer(response)}
        >
          {t(`domain.caseplan.rsvp.${response}`)}
        </button>
      ))}
    </div>
  );
}
