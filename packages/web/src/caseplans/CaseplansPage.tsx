import { Link, useNavigate } from 'react-router-dom';
import type { Caseplan, Organization } from '@caseroom/protocol';
import { callFunction } from '../api/http';
import { t } from '../i18n/t';
import { ActionForm, Field, LoadState, text } from './ui';
import { useLoad } from './useLoad';

/** `/app/caseplans`: the case plans the user may read, and a form to open a new one. */
export function CaseplansPage() {
  const caseplans = useLoad<Caseplan[]>('/api/caseplans');
  const organizations = useLoad<Organization[]>('/api/organizations');
  const navigate = useNavigate();
  return (
    <section className="domain-page" aria-labelledby="caseplans-title">
      <h1 id="caseplans-title">{t('domain.caseplans.title')}</h1>
      <LoadState state={caseplans} onRetry={caseplans.reload}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">{t('domain.caseplans.empty')}</p>
          ) : (
            <ul className="domain-list">
              {list.map((c) => (
                <li key={c.id}>
                  <Link to={`/app/caseplans/${c.id}`}>{c.name}</Link>
                  {c.closed ? <span className="tag"> {t('domain.caseplans.closedTag')}</span> : null}
                </li>
              ))}
            </ul>
          )
        }
      </LoadState>
      <h2>{t('domain.caseplans.create')}</h2>
      <LoadState state={organizations} onRetry={organizations.reload}>
        {(orgs) => (
          <ActionForm
            label={t('domain.caseplans.create')}
            submit={t('domain.caseplans.createSubmit')}
            onSubmit={async (form) => {
              const id = await callFunction<string>('caseplans-create', {
                organization: text(form, 'organization'),
                name: text(form, 'name'),
              });
              void navigate(`/app/caseplans/${id}`);
            }}
          >
            <Field label={t('domain.caseplans.name')}>
              <input name="name" required maxLength={200} />
            </Field>
            <Field label={t('domain.caseplans.organization')}>
              <select name="organization" required>
                {orgs.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </select>
            </Field>
          </ActionForm>
        )}
      </LoadState>
    </section>
  );
}
