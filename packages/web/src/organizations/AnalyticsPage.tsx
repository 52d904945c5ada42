import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ANALYTICS_DEFAULT_WEEKS, type AnalyticsReport, type Organization } from '@caseroom/protocol';
import '../analytics/analytics.css';
import { formatWeek, groupByWeek, type ReportWeek } from '../analytics/weeks';
import { Field, LoadState } from '../caseplans/ui';
import { useLoad } from '../caseplans/useLoad';
import { i18n, t } from '../i18n/t';
import { useCaseplanSession } from '../session/useCaseplanSession';

const PERIODS = [4, ANALYTICS_DEFAULT_WEEKS, 12, 26, 52] as const;

/**
 * `/app/organizations/:id/analytics`: chats opened and messages sent per week and case plan (product-spec §7
 * analytics), for the organization's admins (`policies.analytics`); everyone else is told it is not theirs.
 */
export function AnalyticsPage() {
  const { id } = useParams();
  const loaded = useCaseplanSession().status === 'ready';
  const organizations = useLoad<Organization[]>(loaded ? '/api/organizations' : null);
  return (
    <section className="domain-page" aria-labelledby="analytics-title">
      <LoadState state={organizations} onRetry={organizations.reload}>
        {(orgs) => {
          const org = orgs.find((o) => o.id === id);
          if (!org?.policies.analytics) {
            return (
              <>
                <h1 id="analytics-title">{t('domain.analytics.link')}</h1>
                <p>{t('domain.analytics.notAllowed')}</p>
              </>
            );
          }
          return <Report org={org} />;
        }}
      </LoadState>
    </section>
  );
}

function Report({ org }: { org: Organization }) {
  const [weeks, setWeeks] = useState<number>(ANALYTICS_DEFAULT_WEEKS);
  const report = useLoad<AnalyticsReport>(`/api/organizations/${org.id}/analytics?weeks=${weeks}`);
  return (
    <>
      <h1 id="analytics-title">{t('domain.analytics.title', { name: org.name })}</h1>
      <p>
        <Link to={`/app/organizations/${org.id}`}>{t('domain.analytics.back')}</Link>
      </p>
      <p className="muted">{t('domain.analytics.intro')}</p>
      <Field label={t('domain.analytics.weeks')}>
        <select value={weeks} onChange={(e) => setWeeks(Number(e.target.value))}>
          {PERIODS.map((n) => (
            <option key={n} value={n}>
              {t('domain.analytics.weeksOption', { count: n })}
            </option>
          ))}
        </select>
      </Field>
      <LoadState state={report} onRetry={report.reload}>
        {(data) => {
          const grouped = groupByWeek(data.rows);
          if (grouped.length === 0) return <p className="muted">{t('domain.analytics.none')}</p>;
          return grouped.map((week) => <WeekTable key={week.week} week={week} />);
        }}
      </LoadState>
    </>
  );
}

function WeekTable({ week }: { week: ReportWeek }) {
  return (
    <div className="analytics-week">
      <table className="analytics-table">
        <caption>{t('domain.analytics.week', { date: formatWeek(week.week, i18n.language) })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('domain.analytics.caseplan')}</th>
            <th scope="col">{t('domain.analytics.opened')}</th>
            <th scope="col">{t('domain.analytics.sent')}</th>
          </tr>
        </thead>
        <tbody>
          {week.rows.map((row) => (
            <tr key={row.caseplan ?? ''}>
              <th scope="row">
                {row.caseplan ? (
                  <Link to={`/app/caseplans/${row.caseplan}`}>{row.caseplanName ?? row.caseplan}</Link>
                ) : (
                  t('domain.analytics.noCaseplan')
                )}
              </th>
              <td>{row.chatsOpened}</td>
              <td>{row.messagesSent}</td>
            </tr>
          ))}
        </tbody>
        {week.rows.length > 1 ? (
          <tfoot>
            <tr>
              <th scope="row">{t('domain.analytics.total')}</th>
              <td>{week.chatsOpened}</td>
              <td>{week.messagesSent}</td>
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}
