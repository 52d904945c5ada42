import { useId } from 'react';
import type { Caseplan } from '@caseroom/protocol';
import { t } from '../i18n/t';
import type { CaseplansState } from './useCaseplans';

interface CaseplanSwitcherProps {
  state: CaseplansState;
  selected: Caseplan | null;
  onSelect: (id: string) => void;
  onRetry: () => void;
}

/** Picks the case plan whose chats come first; shows loading, empty and error states. */
export function CaseplanSwitcher({ state, selected, onSelect, onRetry }: CaseplanSwitcherProps) {
  const id = useId();
  return (
    <div className="caseplan-switcher">
      <label htmlFor={id} className="field-label">
        {t('caseplans.label')}
      </label>
      {state.status === 'loading' ? (
        <p className="muted" role="status">
          {t('caseplans.loading')}
        </p>
      ) : state.status === 'error' ? (
        <div role="alert" className="inline-error">
          <span>{t('caseplans.error')}</span>{' '}
          <button type="button" className="button button-small" onClick={onRetry}>
            {t('app.retry')}
          </button>
        </div>
      ) : state.caseplans.length === 0 ? (
        <p className="muted">{t('caseplans.empty')}</p>
      ) : (
        <select id={id} value={selected?.id ?? ''} onChange={(e) => onSelect(e.target.value)}>
          {state.caseplans.map((caseplan) => (
            <option key={caseplan.id} value={caseplan.id}>
              {caseplan.closed ? t('caseplans.closed', { name: caseplan.name }) : caseplan.name}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
