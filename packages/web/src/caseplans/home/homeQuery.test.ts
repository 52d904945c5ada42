import type { CaseplanOverviewItem } from '@caseroom/protocol';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HOME_QUERY,
  attentionGroups,
  filterPlans,
  homeSearchParams,
  parseHomeQuery,
  sortPlans,
  type HomeQuery,
} from './homeQuery';

const POLICIES = { read: true, edit: true, close: false, stats: true, participate: true };

function plan(id: string, over: Partial<CaseplanOverviewItem> = {}): CaseplanOverviewItem {
  return {
    id,
    name: id,
    organization: 'org',
    organizationName: 'Riverside',
    closed: false,
    updated: '2030-01-01T00:00:00.000Z',
    lastOpenedAt: '2030-01-01T00:00:00.000Z',
    lastActivityAt: '2030-01-01T00:00:00.000Z',
    nextEvent: null,
    upcomingEvents: 0,
    staff: { clientWaitingSince: null, lastStaffReplyAt: null, people: { active: 2, clients: 1, guests: 0 } },
    attention: [],
    policies: POLICIES,
    ...over,
  };
}

const waiting = (iso: string) => ({
  clientWaitingSince: iso,
  lastStaffReplyAt: null,
  people: { active: 2, clients: 1, guests: 0 },
});

const PLANS = [
  plan('a', { name: 'Bennett family plan', lastActivityAt: '2030-01-05T00:00:00Z' }),
  plan('b', {
    name: 'Brooks housing plan',
    lastOpenedAt: null,
    attention: ['notOpened'],
    lastActivityAt: '2030-01-09T00:00:00Z',
  }),
  plan('c', { name: 'Ålesund Søfie plan', closed: true, policies: { ...POLICIES, participate: false } }),
  plan('d', {
    name: 'plan 10',
    staff: waiting('2030-01-03T00:00:00Z'),
    attention: ['clientWaiting'],
    lastOpenedAt: '2029-12-01T00:00:00Z',
  }),
  plan('e', {
    name: 'plan 9',
    staff: waiting('2030-01-02T00:00:00Z'),
    attention: ['clientWaiting', 'eventSoon'],
    nextEvent: { id: 'ev', title: 'Visit', startsAt: '2030-01-10T09:00:00Z', endsAt: null },
    organizationName: 'Northside',
  }),
];

const ids = (items: CaseplanOverviewItem[]) => items.map((i) => i.id);
const q = (over: Partial<HomeQuery>): HomeQuery => ({ ...DEFAULT_HOME_QUERY, ...over });

describe('case-plan home sorting', () => {
  it.each([
    ['name', ['a', 'b', 'e', 'd', 'c']],
    ['activity', ['b', 'a', 'e', 'd', 'c']],
    ['opened', ['b', 'd', 'a', 'e', 'c']],
    ['waiting', ['e', 'd', 'a', 'b', 'c']],
  ] as const)('by %s', (sort, expected) => {
    // Ties go by name in Norwegian collation: "plan 9" before "plan 10" (numeric), "Ålesund" last (Å ends nb).
    const sorted = ids(sortPlans(PLANS, sort, 'nb'));
    expect(sorted).toEqual(expected);
  });
});

describe('case-plan home filtering', () => {
  it.each([
    ['the default: open plans', q({}), ['a', 'b', 'd', 'e']],
    ['closed only', q({ status: 'closed' }), ['c']],
    ['all', q({ status: 'all' }), ['a', 'b', 'c', 'd', 'e']],
    ['needs attention', q({ attention: true }), ['b', 'd', 'e']],
    ['my plans (all statuses)', q({ mine: true, status: 'all' }), ['a', 'b', 'd', 'e']],
    ['text, any case', q({ q: 'BROOKS' }), ['b']],
    ['text, every word', q({ q: 'family bennett' }), ['a']],
    ['text, without accents', q({ q: 'alesund sofie', status: 'all' }), ['c']],
    ['text in the organization name', q({ q: 'northside' }), ['e']],
    ['nothing matches', q({ q: 'nobody' }), []],
  ] as const)('%s', (_label, query, expected) => {
    expect(ids(filterPlans(PLANS, query))).toEqual(expected);
  });
});

describe('case-plan home URL query', () => {
  it('keeps only what differs from the defaults, and reads it back', () => {
    expect(homeSearchParams(DEFAULT_HOME_QUERY).toString()).toBe('');
    const query = q({ q: 'brooks', sort: 'waiting', status: 'all', attention: true, mine: true });
    const search = homeSearchParams(query);
    expect(search.toString()).toBe('q=brooks&sort=waiting&status=all&attention=1&mine=1');
    expect(parseHomeQuery(search)).toEqual(query);
  });

  it('reads unknown values as the defaults', () => {
    expect(parseHomeQuery(new URLSearchParams('sort=size&status=gone&attention=yes'))).toEqual(
      DEFAULT_HOME_QUERY,
    );
  });
});

describe('needs attention groups', () => {
  it('puts the longest waiting client, the longest unopened plan and the soonest event first', () => {
    const groups = attentionGroups(PLANS);
    expect(ids(groups.waiting)).toEqual(['e', 'd']);
    expect(ids(groups.notOpened)).toEqual(['b']);
    expect(ids(groups.events)).toEqual(['e']);
  });
});
