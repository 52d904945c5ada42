import { useCallback, useId, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { CaseplanOverview, Organization } from '@caseroom/protocol';
import { t } from '../i18n/t';
import { homeSearchParams, parseHomeQuery, type HomeQuery } from './home/homeQuery';
import { NeedsAttention } from './home/NeedsAttention';
import { NewCaseplan } from './home/NewCaseplan';
import { PlanList } from './home/PlanList';
import './home/home.css';
import { LoadState } from './ui';
import { useLoad } from './useLoad';

/**
 * `/app/caseplans`, the case-plan home: what needs attention (from `GET /api/caseplans/overview`), then every
 * plan with search, sorting and filters kept in the URL, and "New case plan" for those whose organization's
 * `policies.createCaseplan` allows it. What is shown is decided only from the answers' policies.
 */
export function CaseplansPage() {
  const overview = useLoad<CaseplanOverview>('/api/caseplans/overview');
  const organizations = useLoad<Organization[]>('/api/organizations');
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parseHomeQuery(params), [params]);
  const onQuery = useCallback(
    (next: HomeQuery) => setParams(homeSearchParams(next), { replace: true }),
    [setParams],
  );
  const creatable =
    organizations.status === 'ready' ? organizations.data.filter((o) => o.policies.createCaseplan) : [];
  const nameRef = useRef<HTMLInputElement>(null);
  const newTitleId = useId();
  const startNew = () => nameRef.current?.focus();
  const newButton =
    creatable.length > 0 ? (
      <button type="button" className="button button-primary" onClick={startNew}>
        {t('caseplans.home.new')}
      </button>
    ) : null;

  return (
    <section className="domain-page home-page" aria-labelledby="caseplans-title">
      <div className="home-header">
        <h1 id="caseplans-title">{t('domain.caseplans.title')}</h1>
        {newButton}
      </div>
      <LoadState state={overview} onRetry={overview.reload}>
        {(data) => {
          const now = new Date();
          return data.caseplans.length === 0 ? (
            <div className="home-empty">
              <h2>{t('caseplans.home.empty')}</h2>
              <p className="muted">
                {creatable.length > 0 ? t('caseplans.home.emptyCreate') : t('caseplans.home.emptyWait')}
              </p>
              {newButton}
            </div>
          ) : (
            <>
              <NeedsAttention items={data.caseplans} now={now} />
              <PlanList items={data.caseplans} query={query} onQuery={onQuery} now={now} />
            </>
          );
        }}
      </LoadState>
      {organizations.status === 'error' ? (
        <LoadState state={organizations} onRetry={organizations.reload}>
          {() => null}
        </LoadState>
      ) : null}
      {creatable.length > 0 ? (
        <NewCaseplan organizations={creatable} nameRef={nameRef} titleId={newTitleId} />
      ) : null}
    </section>
  );
}
