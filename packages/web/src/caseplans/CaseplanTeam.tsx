import { useId, useRef, useState } from 'react';
import type { Caseplan, Contact, Role, Team } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { RoleRow } from './CaseplanRole';
import { InlineForm } from './InlineForm';
import { Field, text } from './ui';

interface TeamProps {
  plan: Caseplan;
  /** Null for the roles that have no team (made before teams were required). */
  team: Team | null;
  roles: Role[];
  people: Contact[];
  nameOf: (uid: string) => string;
  editable: boolean;
  onChange: () => void;
}

/** One team as a card: its name (renamed in place), its roles with their people, and "Add role". */
export function TeamCard({ plan, team, roles, people, nameOf, editable, onChange }: TeamProps) {
  const headingId = useId();
  const [renaming, setRenaming] = useState(false);
  const [adding, setAdding] = useState(false);
  const renameRef = useRef<HTMLButtonElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const focus = (ref: React.RefObject<HTMLButtonElement | null>) =>
    requestAnimationFrame(() => ref.current?.focus());
  const name = team?.name ?? t('domain.people.noTeam');
  return (
    <section className="cp-team" aria-labelledby={headingId}>
      <header className="cp-team-head">
        {renaming && team ? (
          <InlineForm
            className="cp-rename"
            label={t('domain.caseplan.renameTeam', { name: team.name })}
            success={t('domain.people.teamRenamed')}
            onCancel={() => {
              setRenaming(false);
              focus(renameRef);
            }}
            onDone={() => {
              setRenaming(false);
              focus(renameRef);
              onChange();
            }}
            onSubmit={(form) =>
              callFunction('caseplans-updateTeam', {
                caseplanId: plan.id,
                teamId: team.id,
                name: text(form, 'name'),
              })
            }
          >
            <Field label={t('domain.caseplan.teamName')}>
              <input name="name" required maxLength={200} defaultValue={team.name} />
            </Field>
          </InlineForm>
        ) : (
          <>
            <h3 id={headingId} className="cp-team-name">
              {name}
            </h3>
            <span className="cp-count">{t('domain.people.roleCount', { count: roles.length })}</span>
            {editable && team ? (
              <button
                ref={renameRef}
                type="button"
                className="button button-small cp-team-rename"
                aria-label={t('domain.caseplan.renameTeam', { name: team.name })}
                onClick={() => setRenaming(true)}
              >
                {t('domain.people.rename')}
              </button>
            ) : null}
          </>
        )}
      </header>
      {roles.length === 0 ? (
        <p className="cp-empty">{editable ? t('domain.people.noRolesEdit') : t('domain.people.noRoles')}</p>
      ) : (
        <ul className="cp-roles" aria-label={t('domain.people.rolesOf', { team: name })}>
          {roles.map((role) => (
            <RoleRow
              key={role.id}
              plan={plan}
              role={role}
              people={people}
              nameOf={nameOf}
              editable={editable}
              onChange={onChange}
            />
          ))}
        </ul>
      )}
      {editable && team ? (
        adding ? (
          <AddRoleForm
            plan={plan}
            team={team}
            people={people}
            onClose={() => {
              setAdding(false);
              focus(addRef);
            }}
            onDone={onChange}
          />
        ) : (
          <div className="cp-team-foot">
            <button
              ref={addRef}
              type="button"
              className="button button-small"
              onClick={() => setAdding(true)}
            >
              <span aria-hidden="true">+ </span>
              {t('domain.people.addRoleTo', { team: team.name })}
            </button>
          </div>
        )
      ) : null}
    </section>
  );
}

/** A new role in this team, optionally with the person who takes it (`caseplans-addRole`). */
function AddRoleForm(props: {
  plan: Caseplan;
  team: Team;
  people: Contact[];
  onDone: () => void;
  onClose: () => void;
}) {
  const { plan, team, people, onDone, onClose } = props;
  const clientId = useId();
  return (
    <InlineForm
      className="cp-add-role"
      label={t('domain.people.addRoleTo', { team: team.name })}
      submit={t('domain.caseplan.addRole')}
      success={t('domain.people.roleAdded')}
      onCancel={onClose}
      onDone={() => {
        onClose();
        onDone();
      }}
      onSubmit={(form) => {
        const user = text(form, 'user');
        return callFunction('caseplans-addRole', {
          caseplanId: plan.id,
          teamId: team.id,
          name: text(form, 'name'),
          client: form.get('client') === 'on',
          ...(user ? { userId: user } : {}),
        });
      }}
    >
      <Field label={t('domain.caseplan.roleName')}>
        <input name="name" required maxLength={200} placeholder={t('domain.people.rolePlaceholder')} />
      </Field>
      <Field label={t('domain.caseplan.roleUser')}>
        <select name="user" defaultValue="">
          <option value="">{t('domain.people.nobodyYet')}</option>
          {people.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </Field>
      <div className="cp-check">
        <input id={clientId} type="checkbox" name="client" />
        <label htmlFor={clientId}>{t('domain.people.clientRole')}</label>
      </div>
    </InlineForm>
  );
}
