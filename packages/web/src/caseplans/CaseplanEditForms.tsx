import type { Caseplan, CaseplanEvent, Role, Team } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { dates } from '../i18n/useDates';
import { ActionForm, Field, text } from './ui';

/**
 * The edit forms of a case plan's parts, each folded in a disclosure beside the item. Keyed on the item's
 * values by the caller, so a saved change remounts the form with the new defaults.
 */

/** Renames a team (`caseplans-updateTeam`). */
export function RenameTeamForm({ plan, team, onSaved }: { plan: Caseplan; team: Team; onSaved: () => void }) {
  return (
    <details className="domain-edit">
      <summary>{t('domain.caseplan.renameTeam', { name: team.name })}</summary>
      <ActionForm
        label={t('domain.caseplan.renameTeam', { name: team.name })}
        submit={t('domain.save')}
        onSubmit={async (form) => {
          await callFunction('caseplans-updateTeam', {
            caseplanId: plan.id,
            teamId: team.id,
            name: text(form, 'name'),
          });
          onSaved();
          return false;
        }}
      >
        <Field label={t('domain.caseplan.teamName')}>
          <input name="name" required maxLength={200} defaultValue={team.name} />
        </Field>
      </ActionForm>
    </details>
  );
}

/** Edits a role: name, team, client flag and the person tied to it (`caseplans-updateRole`). */
export function EditRoleForm(props: {
  plan: Caseplan;
  role: Role;
  nameOf: (uid: string) => string;
  onSaved: () => void;
}) {
  const { plan, role, nameOf, onSaved } = props;
  const teams = Object.values(plan.teams);
  const onPlan = Object.entries(plan.users).filter(([, entry]) => entry.active);
  return (
    <details className="domain-edit">
      <summary>{t('domain.caseplan.editRole', { name: role.name })}</summary>
      <ActionForm
        label={t('domain.caseplan.editRole', { name: role.name })}
        submit={t('domain.save')}
        onSubmit={async (form) => {
          const user = text(form, 'user');
          await callFunction('caseplans-updateRole', {
            caseplanId: plan.id,
            roleId: role.id,
            name: text(form, 'name'),
            teamId: text(form, 'team'),
            client: form.get('client') === 'on',
            userId: user || null,
          });
          onSaved();
          return false;
        }}
      >
        <Field label={t('domain.caseplan.roleName')}>
          <input name="name" required maxLength={200} defaultValue={role.name} />
        </Field>
        <Field label={t('domain.caseplan.roleTeam')}>
          <select name="team" defaultValue={role.team ?? teams[0]?.id}>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('domain.caseplan.roleClient')}>
          <input type="checkbox" name="client" defaultChecked={role.client} />
        </Field>
        <Field label={t('domain.caseplan.roleUser')}>
          <select name="user" defaultValue={role.user ?? ''}>
            <option value="">{t('domain.caseplan.vacant')}</option>
            {onPlan.map(([uid]) => (
              <option key={uid} value={uid}>
                {nameOf(uid)}
              </option>
            ))}
          </select>
        </Field>
      </ActionForm>
    </details>
  );
}

/** Edits an event: title, start, location and description (`events-update`). */
export function EditEventForm(props: { plan: Caseplan; event: CaseplanEvent; onSaved: () => void }) {
  const { plan, event, onSaved } = props;
  return (
    <details className="domain-edit">
      <summary>{t('domain.caseplan.editEvent', { title: event.title })}</summary>
      <ActionForm
        label={t('domain.caseplan.editEvent', { title: event.title })}
        submit={t('domain.save')}
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
