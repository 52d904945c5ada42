import type { Caseplan, Contact } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { EditRoleForm, RenameTeamForm } from './CaseplanEditForms';
import { ActionForm, Field, text } from './ui';

interface Props {
  plan: Caseplan;
  contacts: Contact[];
  nameOf: (uid: string) => string;
  onChange: () => void;
  /** Whether the viewer may edit the plan's people, teams and roles. */
  canEdit: boolean;
}

/** Teams, roles and the people in them, with the forms to add each (hidden when the plan is closed). */
export function CaseplanPeople({ plan, contacts, nameOf, onChange, canEdit }: Props) {
  const teams = Object.values(plan.teams);
  const roles = Object.values(plan.roles);
  const people = Object.entries(plan.users);
  const editable = !plan.closed && canEdit;
  const run = async (name: string, data: unknown) => {
    await callFunction(name, data);
    onChange();
  };
  return (
    <>
      <h2>{t('domain.caseplan.people')}</h2>
      {people.length === 0 ? (
        <p className="muted">{t('domain.caseplan.noPeople')}</p>
      ) : (
        <ul className="domain-list">
          {people.map(([uid, entry]) => (
            <li key={uid}>
              <strong>{nameOf(uid)}</strong>
              {' — '}
              {(entry.role && plan.roles[entry.role]?.name) ?? '—'}
              {' · '}
              {(entry.team && plan.teams[entry.team]?.name) ?? '—'}
              {entry.roleData.client ? ` · ${t('domain.caseplan.client')}` : ''}
              {entry.active ? null : ` ${t('domain.caseplan.inactive')}`}
              {editable && entry.active ? (
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => void run('caseplans-removeUser', { caseplanId: plan.id, userId: uid })}
                >
                  {t('domain.caseplan.remove', { name: nameOf(uid) })}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <h3>{t('domain.caseplan.teams')}</h3>
      {teams.length === 0 ? (
        <p className="muted">{t('domain.caseplan.noTeams')}</p>
      ) : (
        <ul className="domain-list">
          {teams.map((team) => (
            <li key={team.id}>
              {team.name}
              {editable ? (
                <RenameTeamForm key={team.name} plan={plan} team={team} onSaved={onChange} />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <h3>{t('domain.caseplan.roles')}</h3>
      {roles.length === 0 ? (
        <p className="muted">{t('domain.caseplan.noRoles')}</p>
      ) : (
        <ul className="domain-list">
          {roles.map((role) => (
            <li key={role.id}>
              {role.name} ({(role.team && plan.teams[role.team]?.name) ?? '—'}):{' '}
              {role.user ? nameOf(role.user) : t('domain.caseplan.vacant')}
              {role.client ? ` · ${t('domain.caseplan.client')}` : ''}
              {editable ? (
                <EditRoleForm
                  key={JSON.stringify([role.name, role.team, role.client, role.user])}
                  plan={plan}
                  role={role}
                  nameOf={nameOf}
                  onSaved={onChange}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {editable ? (
        <div className="domain-forms">
          <ActionForm
            label={t('domain.caseplan.addTeam')}
            submit={t('domain.caseplan.addTeam')}
            onSubmit={(form) => run('caseplans-addTeam', { caseplanId: plan.id, name: text(form, 'name') })}
          >
            <Field label={t('domain.caseplan.teamName')}>
              <input name="name" required maxLength={200} />
            </Field>
          </ActionForm>
          {teams.length > 0 ? (
            <ActionForm
              label={t('domain.caseplan.addRole')}
              submit={t('domain.caseplan.addRole')}
              onSubmit={(form) =>
                run('caseplans-addRole', {
                  caseplanId: plan.id,
                  name: text(form, 'name'),
                  teamId: text(form, 'team'),
                  client: form.get('client') === 'on',
                })
              }
            >
              <Field label={t('domain.caseplan.roleName')}>
                <input name="name" required maxLength={200} />
              </Field>
              <Field label={t('domain.caseplan.roleTeam')}>
                <select name="team">
                  {teams.map((team) => (
                    <option key={team.id} value={team.id}>
                      {team.name}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label={t('domain.caseplan.roleClient')}>
                <input type="checkbox" name="client" />
              </Field>
            </ActionForm>
          ) : null}
          {roles.length > 0 ? (
            <ActionForm
              label={t('domain.caseplan.addPerson')}
              submit={t('domain.caseplan.addPerson')}
              onSubmit={(form) =>
                run('caseplans-addUser', {
                  caseplanId: plan.id,
                  roleId: text(form, 'role'),
                  userId: text(form, 'user'),
                })
              }
            >
              <Field label={t('domain.caseplan.person')}>
                <select name="user">
                  {contacts.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label={t('domain.caseplan.role')}>
                <select name="role">
                  {roles.map((role) => (
                    <option key={role.id} value={role.id}>
                      {role.name}
                    </option>
                  ))}
                </select>
              </Field>
            </ActionForm>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
