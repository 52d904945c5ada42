import { useId } from 'react';
import { t } from '../i18n/t';
import { caseplanSession, type CaseplanSessionState } from '../session/caseplanSession';
import { selectedCaseplanOf } from '../session/useCaseplanSession';

/**
 * Picks the case plan whose chats come first. The choice goes to the server (`session-selectCaseplan`), which
 * checks access and records `lastOpenedAt`; a refusal is a toast and the selection stays. Shows loading, empty
 * and error states.
 */
export function CaseplanSwitcher({ state }: { state: CaseplanSessionState }) {
  const id = useId();
  const selected = selectedCaseplanOf(state);
  // The plans the user is on (product-spec §6: activeUsers contains the user); an admin's other plans are on
  // the case-plan list page.
  const mine =
    state.status === 'ready' ? state.caseplans.filter((c) => c.activeUsers.includes(state.session.uid)) : [];
  return (
    <div className="caseplan-switcher">
      <label htmlFor={id} className="field-label">
        {t('caseplans.label')}
      </label>
      {state.status === 'loading' || state.status === 'idle' ? (
        <p className="muted" role="status">
          {t('caseplans.loading')}
        </p>
      ) : state.status === 'error' ? (
        <div role="alert" className="inline-error">
          <span>{t('caseplans.error')}</span>{' '}
          <button type="button" className="button button-small" onClick={() => void caseplanSession.load()}>
            {t('app.retry')}
          </button>
        </div>
      ) : mine.length === 0 ? (
        <p className="muted">{t('caseplans.empty')}</p>
      ) : (
        <select
          id={id}
          value={selected?.id ?? ''}
          onChange={(e) => void caseplanSession.selectCaseplan(e.target.value)}
        >
          {selected ? null : <option value="">{t('caseplans.none')}</option>}
          {mine.map((caseplan) => (
            <option key={caseplan.id} value={caseplan.id}>
              {caseplan.closed ? t('caseplans.closed', { name: caseplan.name }) : caseplan.name}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
