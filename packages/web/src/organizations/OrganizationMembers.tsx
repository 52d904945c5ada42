import type { OrganizationMembers as MembersAnswer } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { ActionForm, Field, LoadState, text } from '../caseplans/ui';
import { useLoad } from '../caseplans/useLoad';
import { t } from '../i18n/t';
import { Feedback, useFeedback } from './feedback';
import './organization-members.css';

const TYPES = ['admin', 'member', 'client', 'guest'] as const;
type MemberType = (typeof TYPES)[number];

const typeName = (type: string | null | undefined) =>
  t(
    type === 'client' || type === 'guest' || type === 'member'
      ? (`domain.org.type.${type}` as const)
      : 'domain.org.type.admin',
  );

/**
 * The people of an organization and its open invitations, for its admins: change a type, remove someone,
 * invite by e-mail, send an invitation again or cancel it. Every action says what happened (issue 15).
 */
export function OrganizationMembers({ orgId }: { orgId: string }) {
  const members = useLoad<MembersAnswer>(`/api/organizations/${orgId}/members`);
  const { outcome, setOutcome, busy, run } = useFeedback();
  const act = (name: string, data: unknown, saved: string) =>
    run(async () => {
      await callFunction(name, data);
      members.reload();
      return saved;
    });
  return (
    <section className="org-members" aria-labelledby="org-members-title">
      <h2 id="org-members-title">{t('domain.org.members')}</h2>
      <Feedback outcome={outcome} />
      <LoadState state={members} onRetry={members.reload}>
        {(data) => (
          <>
            {/* A fresh organization (just after setup): say what comes next. */}
            {data.members.length === 1 && data.invites.length === 0 ? (
              <p className="login-notice org-first-steps">{t('onboarding.firstSteps')}</p>
            ) : null}
            {data.members.some((m) => m.active) ? null : (
              <p className="muted">{t('onboarding.members.none')}</p>
            )}
            <ul className="domain-list" hidden={!data.members.some((m) => m.active)}>
              {data.members
                .filter((m) => m.active)
                .map((m) => (
                  <li key={m.id} className="org-row">
                    <span className="org-row-who">
                      <strong>{m.name}</strong> <span className="muted">{m.email}</span>
                    </span>
                    <select
                      aria-label={t('domain.org.type', { name: m.name })}
                      value={m.type ?? 'admin'}
                      disabled={busy}
                      onChange={(e) =>
                        void act(
                          'organizations-setUserType',
                          { organizationId: orgId, userId: m.id, type: e.target.value },
                          t('onboarding.members.typeSaved', { name: m.name, type: typeName(e.target.value) }),
                        )
                      }
                    >
                      {TYPES.map((type) => (
                        <option key={type} value={type}>
                          {typeName(type)}
                        </option>
                      ))}
                    </select>
                    <button
                      type="button"
                      className="button button-small"
                      disabled={busy}
                      onClick={() =>
                        void act(
                          'organizations-removeUser',
                          { organizationId: orgId, userId: m.id },
                          t('onboarding.members.removed', { name: m.name }),
                        )
                      }
                    >
                      {t('domain.org.removeMember', { name: m.name })}
                    </button>
                  </li>
                ))}
            </ul>
            <h3>{t('onboarding.invites.title')}</h3>
            {data.invites.length === 0 ? (
              <p className="muted">{t('onboarding.invites.none')}</p>
            ) : (
              <ul className="domain-list">
                {data.invites.map((i) => (
                  <li key={i.id} className="org-row">
                    <span className="org-row-who">
                      {i.email}{' '}
                      <span className="muted">{t('onboarding.invites.as', { type: typeName(i.type) })}</span>
                    </span>
                    <button
                      type="button"
                      className="button button-small"
                      disabled={busy}
                      aria-label={t('onboarding.invites.resendLabel', { email: i.email })}
                      onClick={() =>
                        void act(
                          'organizations-resendInvite',
                          { organizationId: orgId, inviteId: i.id },
                          t('onboarding.invites.resent', { email: i.email }),
                        )
                      }
                    >
                      {t('onboarding.invites.resend')}
                    </button>
                    <button
                      type="button"
                      className="button button-small"
                      disabled={busy}
                      aria-label={t('onboarding.invites.cancelLabel', { email: i.email })}
                      onClick={() =>
                        void act(
                          'organizations-cancelInvite',
                          { organizationId: orgId, inviteId: i.id },
                          t('onboarding.invites.cancelled', { email: i.email }),
                        )
                      }
                    >
                      {t('onboarding.invites.cancel')}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </LoadState>
      <ActionForm
        label={t('onboarding.inviteForm.title')}
        submit={t('onboarding.inviteForm.submit')}
        onSubmit={async (form) => {
          const email = text(form, 'email');
          const type = text(form, 'type') as MemberType;
          const answer = await callFunction<{ userId: string | null }>('organizations-inviteUser', {
            organizationId: orgId,
            email,
            type,
          });
          members.reload();
          setOutcome({
            kind: 'saved',
            text: answer.userId
              ? t('onboarding.invites.added', { email })
              : t('onboarding.invites.sent', { email }),
          });
        }}
      >
        <Field label={t('onboarding.inviteForm.email')}>
          <input name="email" type="email" autoComplete="off" required />
        </Field>
        <Field label={t('onboarding.inviteForm.type')}>
          <select name="type" defaultValue="member">
            {TYPES.map((type) => (
              <option key={type} value={type}>
                {typeName(type)}
              </option>
            ))}
          </select>
        </Field>
      </ActionForm>
    </section>
  );
}
