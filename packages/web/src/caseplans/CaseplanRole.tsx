import { useRef, useState } from 'react';
import type { Caseplan, Contact, Role } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { Avatar } from '../ui/Avatar';
import { Modal } from '../ui/Modal';
import { useSaving } from './feedback';
import { InlineForm } from './InlineForm';
import { Field, text } from './ui';

/** Restores focus to a trigger after the editor it opened has closed (keyboard users keep their place). */
function useReturnFocus() {
  const ref = useRef<HTMLButtonElement>(null);
  const back = () => requestAnimationFrame(() => ref.current?.focus());
  return [ref, back] as const;
}

interface RoleProps {
  plan: Caseplan;
  role: Role;
  /** Everyone who may be seated on the plan (the organization's people). */
  people: Contact[];
  nameOf: (uid: string) => string;
  editable: boolean;
  onChange: () => void;
}

/**
 * One role on the case plan: who holds it (or vacant, or invited), and in place: edit the role, seat a person in
 * a vacant role, remove the holder from the plan (after a confirmation).
 */
export function RoleRow({ plan, role, people, nameOf, editable, onChange }: RoleProps) {
  const [mode, setMode] = useState<'edit' | 'seat' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [editRef, backToEdit] = useReturnFocus();
  const [seatRef, backToSeat] = useReturnFocus();
  const holder = role.user ?? null;
  const seated = holder !== null && plan.users[holder]?.active === true;
  const holderName = holder ? nameOf(holder) : null;
  // A holder who left the plan still holds the role (the server keeps it) until the role is edited.
  const holderText = holderName && !seated ? t('domain.people.holderLeft', { name: holderName }) : holderName;
  const close = () => {
    const wasSeat = mode === 'seat';
    setMode(null);
    if (wasSeat && !holder) backToSeat();
    else backToEdit();
  };
  return (
    <li className="cp-role">
      <div className="cp-role-main">
        {holderName ? (
          <Avatar name={holderName} image={people.find((c) => c.id === holder)?.photo} size="small" />
        ) : (
          <span className="cp-avatar cp-avatar-empty" aria-hidden="true">
            –
          </span>
        )}
        <div className="cp-role-text">
          <span className="cp-role-name">
            {role.name}
            {role.client ? <span className="tag cp-tag-client">{t('domain.people.clientTag')}</span> : null}
          </span>
          <span className={seated ? 'cp-holder' : 'cp-holder cp-vacant'}>
            {holderText ??
              (role.invite ? t('domain.people.invited', { email: role.invite }) : t('domain.people.vacant'))}
          </span>
        </div>
        {editable && mode === null ? (
          <div className="cp-role-actions">
            {holder === null ? (
              <button
                ref={seatRef}
                type="button"
                className="button button-small"
                aria-label={t('domain.people.seatIn', { role: role.name })}
                onClick={() => setMode('seat')}
              >
                {t('domain.people.seat')}
              </button>
            ) : null}
            <button
              ref={editRef}
              type="button"
              className="button button-small"
              aria-label={t('domain.people.editRole', { role: role.name })}
              onClick={() => setMode('edit')}
            >
              {t('domain.people.edit')}
            </button>
            {seated && holderName ? (
              <button
                type="button"
                className="button button-small cp-danger-text"
                aria-label={t('domain.people.removePerson', { name: holderName })}
                onClick={() => setConfirming(true)}
              >
                {t('domain.people.remove')}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
      {mode === 'edit' ? (
        <RoleEditor
          plan={plan}
          role={role}
          people={people}
          nameOf={nameOf}
          onDone={onChange}
          onClose={close}
        />
      ) : null}
      {mode === 'seat' ? (
        <SeatForm plan={plan} role={role} people={people} onDone={onChange} onClose={close} />
      ) : null}
      {confirming && holder && holderName ? (
        <ConfirmRemove
          plan={plan}
          userId={holder}
          name={holderName}
          onDone={onChange}
          onClose={() => {
            setConfirming(false);
            backToEdit();
          }}
        />
      ) : null}
    </li>
  );
}

/** Edit a role in place: name, team, client flag, who holds it, the e-mail invited to take it. */
function RoleEditor(props: {
  plan: Caseplan;
  role: Role;
  people: Contact[];
  nameOf: (uid: string) => string;
  onDone: () => void;
  onClose: () => void;
}) {
  const { plan, role, people, nameOf, onDone, onClose } = props;
  const teams = Object.values(plan.teams);
  return (
    <InlineForm
      label={t('domain.people.editRole', { role: role.name })}
      success={t('domain.people.roleSaved')}
      onDone={() => {
        onClose();
        onDone();
      }}
      onCancel={onClose}
      onSubmit={(form) => {
        const user = text(form, 'user');
        const invite = text(form, 'invite');
        return callFunction('caseplans-updateRole', {
          caseplanId: plan.id,
          roleId: role.id,
          name: text(form, 'name'),
          teamId: text(form, 'team'),
          client: form.get('client') === 'on',
          ...(user !== (role.user ?? '') ? { userId: user || null } : {}),
          ...(invite !== (role.invite ?? '') ? { invite: invite || null } : {}),
        });
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
      <Field label={t('domain.caseplan.roleUser')}>
        <select name="user" defaultValue={role.user ?? ''}>
          <option value="">{t('domain.people.nobody')}</option>
          {/* The holder stays listed even when not among the contacts (e.g. they left the organization). */}
          {role.user && !people.some((p) => p.id === role.user) ? (
            <option value={role.user}>{nameOf(role.user)}</option>
          ) : null}
          {people.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('domain.people.invite')}>
        <input name="invite" type="email" maxLength={320} defaultValue={role.invite ?? ''} />
      </Field>
      <div className="cp-check">
        <input id={`client-${role.id}`} type="checkbox" name="client" defaultChecked={role.client} />
        <label htmlFor={`client-${role.id}`}>{t('domain.people.clientRole')}</label>
      </div>
    </InlineForm>
  );
}

/** Seat a person in a vacant role (`caseplans-addUser`). */
function SeatForm(props: {
  plan: Caseplan;
  role: Role;
  people: Contact[];
  onDone: () => void;
  onClose: () => void;
}) {
  const { plan, role, people, onDone, onClose } = props;
  return (
    <InlineForm
      label={t('domain.people.seatIn', { role: role.name })}
      submit={t('domain.people.seat')}
      success={t('domain.people.seated', { role: role.name })}
      onDone={() => {
        onClose();
        onDone();
      }}
      onCancel={onClose}
      onSubmit={(form) =>
        callFunction('caseplans-addUser', {
          caseplanId: plan.id,
          roleId: role.id,
          userId: text(form, 'user'),
        })
      }
    >
      <Field label={t('domain.caseplan.person')}>
        <select name="user" required defaultValue="">
          <option value="" disabled>
            {t('domain.edit.choose')}
          </option>
          {people.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </Field>
    </InlineForm>
  );
}

/** "Remove Maria Lopez from this case plan?": a dialog, because they also leave the plan's chats. */
export function ConfirmRemove(props: {
  plan: Caseplan;
  userId: string;
  name: string;
  onDone: () => void;
  onClose: () => void;
}) {
  const { plan, userId, name, onDone, onClose } = props;
  const saving = useSaving();
  const remove = async () => {
    const ok = await saving.run(() => callFunction('caseplans-removeUser', { caseplanId: plan.id, userId }), {
      success: t('domain.people.removed', { name }),
    });
    if (ok) {
      onClose();
      onDone();
    }
  };
  return (
    <Modal
      title={t('domain.people.confirmTitle', { name })}
      onClose={() => (saving.busy ? undefined : onClose())}
    >
      <div className="cp-confirm">
        <p>{t('domain.people.confirmText', { name, plan: plan.name })}</p>
        {saving.error ? (
          <p role="alert" className="inline-error">
            {t('domain.edit.refused', { message: saving.error })}
          </p>
        ) : null}
        <div className="cp-inline-actions">
          <button
            type="button"
            className="button cp-danger"
            disabled={saving.busy}
            onClick={() => void remove()}
          >
            {saving.busy ? t('domain.edit.saving') : t('domain.people.confirmRemove', { name })}
          </button>
          <button type="button" className="button" disabled={saving.busy} onClick={onClose}>
            {t('domain.edit.cancel')}
          </button>
        </div>
      </div>
    </Modal>
  );
}
