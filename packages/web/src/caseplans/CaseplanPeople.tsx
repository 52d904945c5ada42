import { useState } from 'react';
import type { Caseplan, Contact } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { Avatar } from '../ui/Avatar';
import { ConfirmRemove } from './CaseplanRole';
import { TeamCard } from './CaseplanTeam';
import { ActionForm, Field, text } from './ui';
import './caseplanEdit.css';

interface Props {
  plan: Caseplan;
  contacts: Contact[];
  nameOf: (uid: string) => string;
  onChange: () => void;
  /** Whether the viewer may edit the plan's people, teams and roles (the plan's `policies.edit`). */
  canEdit: boolean;
}

/**
 * People, teams and roles of a case plan, edited in place: a card per team with its roles and who holds them,
 * "Add a person" to seat someone in a role, "Add team" at the end; people without a role and people who left are
 * listed after the teams. Read-only on a closed plan and for viewers who may not edit it.
 */
export function CaseplanPeople({ plan, contacts, nameOf, onChange, canEdit }: Props) {
  const teams = Object.values(plan.teams);
  const roles = Object.values(plan.roles);
  const editable = !plan.closed && canEdit;
  // Who may be seated: the people of the plan's organization.
  const people = contacts.filter((c) => c.organizations.includes(plan.organization));
  const teamIds = new Set(teams.map((team) => team.id));
  const orphanRoles = roles.filter((role) => !role.team || !teamIds.has(role.team));
  const entries = Object.entries(plan.users);
  const withoutRole = entries.filter(([, e]) => e.active && (!e.role || !plan.roles[e.role]));
  // People who left and are no longer among the viewer's contacts (a client's, say) would show as bare ids.
  const left = entries.filter(([uid, e]) => !e.active && contacts.some((c) => c.id === uid));
  return (
    <section className="cp-people" aria-labelledby="cp-people-title">
      <div className="cp-section-head">
        <h2 id="cp-people-title">{t('domain.people.title')}</h2>
        <p className="muted">
          {t('domain.people.peopleCount', { count: plan.activeUsers.length })}
          {' · '}
          {t('domain.people.teamCount', { count: teams.length })}
        </p>
      </div>
      {editable && roles.length > 0 ? (
        <div className="cp-add">
          <h3>{t('domain.people.addPerson')}</h3>
          <AddPersonForm plan={plan} people={people} nameOf={nameOf} onChange={onChange} />
        </div>
      ) : null}
      {teams.length === 0 ? (
        <p className="cp-empty cp-empty-large">
          {editable ? t('domain.people.noTeamsEdit') : t('domain.caseplan.noTeams')}
        </p>
      ) : null}
      {teams.map((team) => (
        <TeamCard
          key={team.id}
          plan={plan}
          team={team}
          roles={roles.filter((role) => role.team === team.id)}
          people={people}
          nameOf={nameOf}
          editable={editable}
          onChange={onChange}
        />
      ))}
      {orphanRoles.length > 0 ? (
        <TeamCard
          plan={plan}
          team={null}
          roles={orphanRoles}
          people={people}
          nameOf={nameOf}
          editable={editable}
          onChange={onChange}
        />
      ) : null}
      {withoutRole.length > 0 ? (
        <PeopleList
          title={t('domain.people.withoutRole')}
          plan={plan}
          uids={withoutRole.map(([uid]) => uid)}
          people={people}
          nameOf={nameOf}
          removable={editable}
          onChange={onChange}
        />
      ) : null}
      {left.length > 0 ? (
        <PeopleList
          title={t('domain.people.left')}
          plan={plan}
          uids={left.map(([uid]) => uid)}
          people={people}
          nameOf={nameOf}
          removable={false}
          onChange={onChange}
        />
      ) : null}
      {editable ? (
        <div className="cp-add">
          <h3>{t('domain.people.newTeam')}</h3>
          <ActionForm
            label={t('domain.caseplan.addTeam')}
            submit={t('domain.caseplan.addTeam')}
            success={t('domain.people.teamAdded')}
            onSubmit={async (form) => {
              await callFunction('caseplans-addTeam', { caseplanId: plan.id, name: text(form, 'name') });
              onChange();
            }}
          >
            <Field label={t('domain.caseplan.teamName')}>
              <input name="name" required maxLength={200} placeholder={t('domain.people.teamPlaceholder')} />
            </Field>
          </ActionForm>
        </div>
      ) : null}
    </section>
  );
}

/** Seat a person in any role of the plan (`caseplans-addUser`); the server refuses a role someone else holds. */
function AddPersonForm({
  plan,
  people,
  nameOf,
  onChange,
}: {
  plan: Caseplan;
  people: Contact[];
  nameOf: (uid: string) => string;
  onChange: () => void;
}) {
  const roles = Object.values(plan.roles);
  const onPlan = (id: string) => plan.users[id]?.active === true;
  // People not on the plan yet first: they are the likely choice.
  const sorted = [...people].sort((a, b) => Number(onPlan(a.id)) - Number(onPlan(b.id)));
  return (
    <ActionForm
      label={t('domain.people.addPerson')}
      submit={t('domain.caseplan.addPerson')}
      success={t('domain.people.personAdded')}
      onSubmit={async (form) => {
        await callFunction('caseplans-addUser', {
          caseplanId: plan.id,
          roleId: text(form, 'role'),
          userId: text(form, 'user'),
        });
        onChange();
      }}
    >
      <Field label={t('domain.caseplan.person')}>
        <select name="user" required defaultValue="">
          <option value="" disabled>
            {t('domain.edit.choose')}
          </option>
          {sorted.map((c) => (
            <option key={c.id} value={c.id}>
              {onPlan(c.id) ? t('domain.people.alreadyOn', { name: c.name }) : c.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('domain.caseplan.role')}>
        <select name="role" required defaultValue="">
          <option value="" disabled>
            {t('domain.edit.choose')}
          </option>
          {roles.map((role) => (
            <option key={role.id} value={role.id}>
              {role.user
                ? t('domain.people.roleHeld', { role: role.name, name: nameOf(role.user) })
                : t('domain.people.roleVacant', { role: role.name })}
            </option>
          ))}
        </select>
      </Field>
    </ActionForm>
  );
}

/** People on the plan without a role, or who left it. */
function PeopleList(props: {
  title: string;
  plan: Caseplan;
  uids: string[];
  people: Contact[];
  nameOf: (uid: string) => string;
  removable: boolean;
  onChange: () => void;
}) {
  const { title, plan, uids, people, nameOf, removable, onChange } = props;
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <section className="cp-team cp-others" aria-label={title}>
      <header className="cp-team-head">
        <h3 className="cp-team-name">{title}</h3>
      </header>
      <ul className="cp-roles">
        {uids.map((uid) => (
          <li key={uid} className="cp-role">
            <div className="cp-role-main">
              <Avatar name={nameOf(uid)} image={people.find((c) => c.id === uid)?.photo} size="small" />
              <div className="cp-role-text">
                <span className="cp-role-name">{nameOf(uid)}</span>
              </div>
              {removable ? (
                <div className="cp-role-actions">
                  <button
                    type="button"
                    className="button button-small cp-danger-text"
                    aria-label={t('domain.people.removePerson', { name: nameOf(uid) })}
                    onClick={() => setConfirming(uid)}
                  >
                    {t('domain.people.remove')}
                  </button>
                </div>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      {confirming ? (
        <ConfirmRemove
          plan={plan}
          userId={confirming}
          name={nameOf(confirming)}
          onDone={onChange}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </section>
  );
}
