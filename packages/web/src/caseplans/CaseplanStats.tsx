import type { Caseplan, CaseplanUserStats } from '@caseroom/protocol';
import { dates } from '../i18n/useDates';
import { t } from '../i18n/t';
import { LoadState } from './ui';
import { useLoad } from './useLoad';

const when = (iso: string | null) => (iso ? dates().dateTime(iso) : t('domain.caseplan.stats.never'));

/** Per-person activity on the plan (product-spec §3 statistics), for the staff who run it. */
export function CaseplanStats({ plan, nameOf }: { plan: Caseplan; nameOf: (uid: string) => string }) {
  const stats = useLoad<CaseplanUserStats[]>(`/api/caseplans/${encodeURIComponent(plan.id)}/stats`);
  return (
    <>
      <h2 id="caseplan-stats-title">{t('domain.caseplan.stats')}</h2>
      <LoadState state={stats} onRetry={stats.reload}>
        {(rows) =>
          rows.length === 0 ? (
            <p className="muted">{t('domain.caseplan.stats.empty')}</p>
          ) : (
            // Focusable: on phones the table scrolls sideways, and keyboard users must be able to scroll it.
            <table className="domain-table" tabIndex={0} aria-labelledby="caseplan-stats-title">
              <thead>
                <tr>
                  <th scope="col">{t('domain.caseplan.stats.person')}</th>
                  <th scope="col">{t('domain.caseplan.stats.opened')}</th>
                  <th scope="col">{t('domain.caseplan.stats.sent')}</th>
                  <th scope="col">{t('domain.caseplan.stats.toClient')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.user}>
                    <th scope="row">{nameOf(row.user)}</th>
                    <td>{when(row.lastOpenedAt)}</td>
                    <td>{when(row.lastMessageSentAt)}</td>
                    <td>{when(row.lastMessageToClientAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </LoadState>
    </>
  );
}
