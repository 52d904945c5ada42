import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { AuditPage, Organization } from '@caseroom/protocol';
import { Field, LoadState } from '../caseplans/ui';
import { useLoad } from '../caseplans/useLoad';
import { t } from '../i18n/t';
import { dates } from '../i18n/useDates';
import { caseplanSession } from '../session/caseplanSession';
import { useCaseplanSession } from '../session/useCaseplanSession';
import { useSession } from '../session/useSession';
import { CreateOrganization } from './CreateOrganization';
import { FieldSchemas } from './fields/FieldsBuilder';
import { OrganizationMembers } from './OrganizationMembers';

const typeKey = (type: string | undefined) =>
  type === 'client' || type === 'guest' || type === 'admin'
    ? (`domain.org.type.${type}` as const)
    : 'domain.org.type.member';

/**
 * Selects the organization of the route in the session (`session-selectOrganization`), once the session is
 * loaded: an organization the session does not hold is the toast 'Organization was not loaded into the
 * session'. A super-admin (`superAdmin`) administers organizations they are not a member of (issue 15): those
 * are shown without selecting them, and without the toast.
 */
function useSelectOrganization(id: string | undefined, superAdmin: boolean) {
  const state = useCaseplanSession();
  const ready = state.status === 'ready';
  const held = ready && id !== undefined && state.session.organizations.includes(id);
  useEffect(() => {
    if (id && ready && (held || !superAdmin)) void caseplanSession.selectOrganization(id);
  }, [id, ready, held, superAdmin]);
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
  const mayCreate = session.status === 'signed-in' && session.me.policies.createOrganization;
  useSelectOrganization(id, mayCreate);
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
                  <OrganizationMembers orgId={org.id} />
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
      {mayCreate ? <CreateOrganization key={id ?? ''} onCreated={organizations.reload} /> : null}
    </section>
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
                    <time dateTime={e.at}>{dates().dateTime(e.at)}</time> — {e.actorName ?? e.actor}:{' '}
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
