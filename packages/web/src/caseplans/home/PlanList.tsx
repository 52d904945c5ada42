import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { CaseplanOverviewItem } from '@caseroom/protocol';
import { i18n, t } from '../../i18n/t';
import {
  DEFAULT_HOME_QUERY,
  HOME_SORTS,
  HOME_STATUSES,
  filterPlans,
  homeSearchParams,
  sortPlans,
  type HomeQuery,
} from './homeQuery';
import { PlanFacts, ReasonTags } from './PlanFacts';
import { tCount } from './tCount';

/**
 * Every plan the viewer may read, with search, sorting and filters. The query lives in the URL (the page owns
 * it); this only renders it and reports changes.
 */
export function PlanList({
  items,
  query,
  onQuery,
  now,
}: {
  items: readonly CaseplanOverviewItem[];
  query: HomeQuery;
  onQuery: (next: HomeQuery) => void;
  now: Date;
}) {
  const titleId = useId();
  const search = useSearchText(query.q, (q) => onQuery({ ...query, q }));
  const shown = sortPlans(filterPlans(items, { ...query, q: search.value }), query.sort, i18n.language);
  const severalOrganizations = new Set(items.map((i) => i.organization)).size > 1;
  // "My plans" only means something to someone who also sees plans they are not on (an organization admin).
  const offerMine = query.mine || items.some((i) => !i.policies.participate);
  // Sorting by a waiting client only for those who see staff facts (clients and guests never do).
  const sorts = HOME_SORTS.filter((s) => s !== 'waiting' || query.sort === s || items.some((i) => i.staff));
  const set = (patch: Partial<HomeQuery>) => onQuery({ ...query, q: search.value, ...patch });
  // One plan needs no search; a link that carries filters still shows them (so they can be cleared).
  const offerFilters = items.length > 1 || homeSearchParams(query).size > 0;
  return (
    <section className="home-all" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('caseplans.home.all')}</h2>
      {offerFilters ? (
        <div role="search" aria-label={t('caseplans.home.filters')} className="home-filters">
          <label className="home-filter home-filter-search">
            <span className="field-label">{t('caseplans.home.search')}</span>
            <input
              type="search"
              value={search.value}
              placeholder={t('caseplans.home.searchPlaceholder')}
              onChange={(e) => search.change(e.target.value)}
            />
          </label>
          <Select
            label={t('caseplans.home.sort')}
            value={query.sort}
            options={sorts.map((s) => [s, t(`caseplans.home.sort.${s}`)])}
            onChange={(sort) => set({ sort })}
          />
          <Select
            label={t('caseplans.home.status')}
            value={query.status}
            options={HOME_STATUSES.map((s) => [s, t(`caseplans.home.status.${s}`)])}
            onChange={(status) => set({ status })}
          />
          <div className="home-toggles">
            <label className="home-toggle">
              <input
                type="checkbox"
                checked={query.attention}
                onChange={(e) => set({ attention: e.target.checked })}
              />
              {t('caseplans.home.onlyAttention')}
            </label>
            {offerMine ? (
              <label className="home-toggle">
                <input
                  type="checkbox"
                  checked={query.mine}
                  onChange={(e) => set({ mine: e.target.checked })}
                />
                {t('caseplans.home.onlyMine')}
              </label>
            ) : null}
          </div>
        </div>
      ) : null}
      <p className="home-count" role="status">
        {tCount('caseplans.home.count', shown.length)}
      </p>
      {shown.length === 0 ? (
        <div className="home-nomatch">
          <p>{t('caseplans.home.noMatch')}</p>
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              search.reset();
              onQuery(DEFAULT_HOME_QUERY);
            }}
          >
            {t('caseplans.home.clearFilters')}
          </button>
        </div>
      ) : (
        <ul className="home-list" aria-labelledby={titleId}>
          {shown.map((item) => (
            <li key={item.id} className="home-row" data-closed={item.closed || undefined}>
              <div className="home-row-head">
                <Link className="home-row-name" to={`/app/caseplans/${encodeURIComponent(item.id)}`}>
                  {item.name}
                </Link>
                <ReasonTags item={item} />
              </div>
              {severalOrganizations ? <p className="home-row-org">{item.organizationName}</p> : null}
              <PlanFacts item={item} now={now} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The search box's own text, from the URL when the page opens; after that the URL follows the box, never the
 * other way: the router lands each navigation a moment after its keystroke (and not always in order), so a box
 * fed from the URL dropped or reverted keys. "Clear filters" resets it explicitly.
 */
function useSearchText(initial: string, onChange: (text: string) => void) {
  const [value, setValue] = useState(initial);
  return {
    value,
    change(text: string) {
      setValue(text);
      onChange(text);
    },
    reset() {
      setValue('');
    },
  };
}

function Select<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: [T, string][];
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <div className="home-filter">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => {
          const next = options.find(([v]) => v === e.target.value);
          if (next) onChange(next[0]);
        }}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
