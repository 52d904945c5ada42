import type { CaseplanOverviewItem } from '@caseroom/protocol';

/**
 * The plan list's sorting and filtering on the case-plan home, kept in the URL query (`?q=&sort=&status=
 * &attention=1&mine=1`) so a link reproduces the view. Pure: `homeQuery.test.ts` has the table.
 */

export const HOME_SORTS = ['activity', 'name', 'opened', 'waiting'] as const;
export type HomeSort = (typeof HOME_SORTS)[number];
export const HOME_STATUSES = ['open', 'closed', 'all'] as const;
export type HomeStatus = (typeof HOME_STATUSES)[number];

export interface HomeQuery {
  /** Text search in the plan's and its organization's name. */
  q: string;
  sort: HomeSort;
  status: HomeStatus;
  /** Only plans that need the viewer's attention. */
  attention: boolean;
  /** Only plans the viewer is on (`policies.participate`), not every plan an admin oversees. */
  mine: boolean;
}

export const DEFAULT_HOME_QUERY: HomeQuery = {
  q: '',
  sort: 'activity',
  status: 'open',
  attention: false,
  mine: false,
};

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  values.find((v) => v === value) ?? fallback;

/** The query of a URL; unknown or missing values are the defaults. */
export function parseHomeQuery(params: URLSearchParams): HomeQuery {
  return {
    q: params.get('q') ?? '',
    sort: oneOf(HOME_SORTS, params.get('sort'), DEFAULT_HOME_QUERY.sort),
    status: oneOf(HOME_STATUSES, params.get('status'), DEFAULT_HOME_QUERY.status),
    attention: params.get('attention') === '1',
    mine: params.get('mine') === '1',
  };
}

/** The URL query for `query`, with only what differs from the defaults (the plain page has a plain URL). */
export function homeSearchParams(query: HomeQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.q !== '') params.set('q', query.q);
  if (query.sort !== DEFAULT_HOME_QUERY.sort) params.set('sort', query.sort);
  if (query.status !== DEFAULT_HOME_QUERY.status) params.set('status', query.status);
  if (query.attention) params.set('attention', '1');
  if (query.mine) params.set('mine', '1');
  return params;
}

/** Lower case without accents, so "sofie" finds "Søfie" and "hélène" finds "Helene". */
export function searchable(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ø/gi, 'o')
    .replace(/æ/gi, 'ae')
    .toLocaleLowerCase();
}

/** The plans the filters keep, in the order given. */
export function filterPlans(
  items: readonly CaseplanOverviewItem[],
  query: HomeQuery,
): CaseplanOverviewItem[] {
  const words = searchable(query.q).split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    if (query.status === 'open' && item.closed) return false;
    if (query.status === 'closed' && !item.closed) return false;
    if (query.attention && item.attention.length === 0) return false;
    if (query.mine && !item.policies.participate) return false;
    const haystack = searchable(`${item.name} ${item.organizationName}`);
    return words.every((w) => haystack.includes(w));
  });
}

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

/** Ascending by a time, with plans without one after the rest (`missing: 'last'`) or before (`'first'`). */
function byTime(a: number | null, b: number | null, missing: 'first' | 'last'): number {
  if (a === b) return 0;
  if (a === null) return missing === 'first' ? -1 : 1;
  if (b === null) return missing === 'first' ? 1 : -1;
  return a - b;
}

/**
 * Sorted copy of `items`:
 * - `name`: A to Z in the interface language;
 * - `activity`: the latest activity first;
 * - `opened`: the plan you opened longest ago first (never opened at the top) — what you may have forgotten;
 * - `waiting`: the client who has waited longest first; plans where nobody waits after them.
 * Ties go by name, then id, so the order is stable.
 */
export function sortPlans(
  items: readonly CaseplanOverviewItem[],
  sort: HomeSort,
  locale?: string,
): CaseplanOverviewItem[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const byName = (a: CaseplanOverviewItem, b: CaseplanOverviewItem) =>
    collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const primary = (a: CaseplanOverviewItem, b: CaseplanOverviewItem): number => {
    switch (sort) {
      case 'name':
        return 0;
      case 'activity':
        return -byTime(time(a.lastActivityAt), time(b.lastActivityAt), 'first');
      case 'opened':
        return byTime(time(a.lastOpenedAt), time(b.lastOpenedAt), 'first');
      case 'waiting':
        return byTime(time(a.staff?.clientWaitingSince), time(b.staff?.clientWaitingSince), 'last');
    }
  };
  return [...items].sort((a, b) => primary(a, b) || byName(a, b));
}

/** The "Needs attention" groups, each in its own order: longest waiting, longest unopened, soonest event. */
export function attentionGroups(items: readonly CaseplanOverviewItem[]) {
  const having = (reason: CaseplanOverviewItem['attention'][number]) =>
    items.filter((i) => i.attention.includes(reason));
  return {
    waiting: sortPlans(having('clientWaiting'), 'waiting'),
    notOpened: sortPlans(having('notOpened'), 'opened'),
    events: [...having('eventSoon')].sort(
      (a, b) =>
        byTime(time(a.nextEvent?.startsAt), time(b.nextEvent?.startsAt), 'last') || (a.id < b.id ? -1 : 1),
    ),
  };
}
