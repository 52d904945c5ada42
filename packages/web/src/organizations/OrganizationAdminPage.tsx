import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { AuditPage, Organization, OrganizationMembers } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { ActionForm, Field, LoadState, text } from '../caseplans/ui';
import { useLoad } from '../caseplans/useLoad';
import { t } from '../i18n/t';
import { caseplanSession } from '../session/caseplanSession';
import { useCaseplanSession } from '../session/useCaseplanSession';
import { useSession } from '../session/useSession';
import { FieldSchemas } from './fields/FieldsBuilder';

const TYPES = ['admin', 'member', 'client', 'guest'] as const;

const typeKey = (type: string | undefined) =>
  type === 'client' || type === 'guest' || type === 'admin'
    ? (`domain.org.type.${type}` as const)
    : 'domain.org.type.member';

/**
 * Selects the organization of the route in the session (`session-selectOrganization`), once the session is
 * loaded: an organization the session does not hold is the toast 'Organization was not loaded into the
 * session'.
 */
function useSelectOrganization(id: string | undefined) {
  const ready = useCaseplanSession().status === 'ready';
  useEffect(() => {
    if (id && ready) void caseplanSession.selectOrganization(id);
  }, [id, ready]);
}

/**
 * `/app/organizations/:id?`: for its admins, members and their types, invites, field schemas and the audit
 * log; for everyone else in it, which organization this is and their place in it.
 */
export function OrganizationAdminPage() {
  const { id } = useParams();
  // After the session loaded: it claims open invites, so a just-joined organization is in the list.
  const loaded = useCaseplanSession().status === 'ready';
  const organizations = useLoad<Organization[]>(loaded ? '/api/organizations' : null);
  const navigate = useNavigate();
  const session = useSession();
  const uid = session.status === 'signed-in' ? session.me.uid : null;
  useSelectOrganization(id);
  return (
    <section className="domain-page" aria-labelledby="org-title">
      <LoadState state={organizations} onRetry={organizations.reload}>
        {(orgs) => {
          const org = orgs.find((o) => o.id === id) ?? orgs[0];
          if (!org) return <p className="muted">{t('domain.org.none')}</p>;
          return (
            <>
              <h1 id="org-title">{t('domain.org.title', { name: org.name })}</h1>
              {orgs.length > 1 ? (
                <Field label={t('domain.org.choose')}>
                  <select
                    value={org.id}
                    onChange={(e) => void navigate(`/app/organizations/${e.target.value}`)}
                  >
                    {orgs.map((o) => (
                      <option key={o.id} value={o.id}>
                        {o.name}
                      </option>
                    ))}
                  </select>
                </Field>
              ) : null}
              {org.policies.analytics ? (
                <p>
                  <Link to={`/app/organizations/${org.id}/analytics`}>{t('domain.analytics.link')}</Link>
                </p>
              ) : null}
              {org.policies.manage ? (
                <>
                  <Members orgId={org.id} />
                  {org.policies.writeSettings ? <FieldSchemas orgId={org.id} /> : null}
                  {org.policies.audit ? <Audit orgId={org.id} /> : null}
                </>
              ) : (
                <p>
                  {t('domain.org.memberOf', {
                    type: t(typeKey(org.users[uid ?? '']?.type)),
                  })}
                </p>
              )}
            </>
          );
        }}
      </LoadState>
    </section>
  );
}

function Members({ orgId }: { orgId: string }) {
  const members = useLoad<OrganizationMembers>(`/api/organizations/${orgId}/members`);
  const run = async (name: string, data: unknown) => {
    await callFunction(name, data);
    members.reload();
  };
  return (
    <>
      <h2>{t('domain.org.members')}</h2>
      <LoadState state={members} onRetry={members.reload}>
        {(data) => (
          <>
            <ul className="domain-list">
              {data.members
                .filter((m) => m.active)
                .map((m) => (
                  <li key={m.id}>
                    <strong>{m.name}</strong> <span className="muted">{m.email}</span>{' '}
                    <select
                      aria-label={t('domain.org.type', { name: m.name })}
                      value={m.type ?? 'admin'}
                      onChange={(e) =>
                        void run('organizations-setUserType', {
                          organizationId: orgId,
                          userId: m.id,
                          type: e.target.value,
                        })
                      }
                    >
                      {TYPES.map((type) => (
                        <option key={type} value={type}>
                          {type}
                        </option>
                      ))}
                    </select>{' '}
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() =>
                        void run('organizations-removeUser', { organizationId: orgId, userId: m.id })
                      }
                    >
                      {t('domain.org.removeMember', { name: m.name })}
                    </button>
                  </li>
                ))}
            </ul>
            {data.invites.length > 0 ? (
              <>
                <h3>{t('domain.org.invites')}</h3>
                <ul className="domain-list">
                  {data.invites.map((i) => (
                    <li key={i.id}>
                      {i.email} ({i.type})
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </>
        )}
      </LoadState>
      <ActionForm
        label={t('domain.org.invite')}
        submit={t('domain.org.inviteSubmit')}
        onSubmit={(form) =>
          run('organizations-inviteUser', {
            organizationId: orgId,
            email: text(form, 'email'),
            type: text(form, 'type'),
          })
        }
      >
        <Field label={t('domain.org.email')}>
          <input name="email" type="email" required />
        </Field>
        <Field label={t('domain.caseplan.role')}>
          <select name="type" defaultValue="member">
            {TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </Field>
      </ActionForm>
    </>
  );
}

function Audit({ orgId }: { orgId: string }) {
  const [before, setBefore] = useState<number | null>(null);
  const audit = useLoad<AuditPage>(`/api/organizations/${orgId}/audit${before ? `?before=${before}` : ''}`);
  return (
    <>
      <h2>{t('domain.org.audit')}</h2>
      <LoadState state={audit} onRetry={audit.reload}>
        {(page) =>
          page.entries.length === 0 ? (
            <p className="muted">{t('domain.org.noAudit')}</p>
          ) : (
            <>
              <ol className="domain-list">
                {page.entries.map((e) => (
                  <li key={e.id}>
                    <time dateTime={e.at}>{new Date(e.at).toLocaleString()}</time> — {e.actorName ?? e.actor}:{' '}
                    <code>{e.action}</code> {e.entity} <span className="muted">{e.entityId}</span>
                  </li>
                ))}
              </ol>
              {page.next ? (
                <button type="button" className="button button-small" onClick={() => setBefore(page.next)}>
                  {t('domain.org.more')}
                </button>
              ) : null}
            </>
          )
        }
      </LoadState>
    </>
  );
}
