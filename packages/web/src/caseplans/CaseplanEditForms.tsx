import type { Caseplan, CaseplanEvent } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { dates } from '../i18n/useDates';
import { ActionForm, Field, text } from './ui';

/**
 * The edit form of an event, folded in a disclosure beside it. Keyed on the event's `updated` by the caller, so a
 * saved change remounts the form with the new defaults. (Teams and roles are edited in place: CaseplanTeam.tsx,
 * CaseplanRole.tsx.)
 */

/** Edits an event: title, start, location and description (`events-update`). */
export function EditEventForm(props: { plan: Caseplan; event: CaseplanEvent; onSaved: () => void }) {
  const { plan, event, onSaved } = props;
  return (
    <details className="domain-edit">
      <summary>{t('domain.caseplan.editEvent', { title: event.title })}</summary>
      <ActionForm
        label={t('domain.caseplan.editEvent', { title: event.title })}
        submit={t('domain.save')}
        success={t('domain.events.saved')}
        onSubmit={async (form) => {
          await callFunction('events-update', {
            caseplanId: plan.id,
            eventId: event.id,
            title: text(form, 'title'),
            startsAt: dates().fromInput(text(form, 'startsAt')),
            location: text(form, 'location') || null,
            description: text(form, 'description') || null,
          });
          onSaved();
          return false;
        }}
      >
        <Field label={t('domain.caseplan.eventTitle')}>
          <input name="title" required maxLength={200} defaultValue={event.title} />
        </Field>
        <Field label={t('domain.caseplan.eventStart')}>
          <input
            name="startsAt"
            type="datetime-local"
            required
            defaultValue={dates().toInput(event.startsAt)}
          />
        </Field>
        <Field label={t('domain.caseplan.eventLocation')}>
          <input name="location" maxLength={500} defaultValue={event.location ?? ''} />
        </Field>
        <Field label={t('domain.caseplan.eventDescription')}>
          <textarea name="description" maxLength={5000} defaultValue={event.description ?? ''} />
        </Field>
      </ActionForm>
    </details>
  );
}
