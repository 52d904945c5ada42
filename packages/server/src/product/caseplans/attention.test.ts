import type { AttentionReason, CaseplanAbilities } from '@caseroom/protocol';
import { describe, expect, it } from 'vitest';
import { attentionOf, type AttentionFacts } from './attention.js';

const NOW = new Date('2030-06-15T12:00:00Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 24 * 60 * 60 * 1000);
const STAFF_ON: CaseplanAbilities = { read: true, edit: true, close: false, stats: true, participate: true };
const ADMIN_OFF: CaseplanAbilities = { read: true, edit: true, close: true, stats: true, participate: false };
const CLIENT: CaseplanAbilities = { read: true, edit: false, close: false, stats: false, participate: true };
const BASE: AttentionFacts = {
  closed: false,
  created: daysAgo(100),
  lastOpenedAt: daysAgo(1),
  joinedAt: daysAgo(100),
  clientWaitingSince: null,
  hasUpcomingEvent: false,
};

/** The attention rules (docs/caseplan-home.md) as a table: facts, viewer, reasons. */
const TABLE: [string, Partial<AttentionFacts>, CaseplanAbilities, AttentionReason[]][] = [
  ['nothing to do', {}, STAFF_ON, []],
  ['a client waits (staff)', { clientWaitingSince: daysAgo(1) }, STAFF_ON, ['clientWaiting']],
  ['a client waits (admin off the plan)', { clientWaitingSince: daysAgo(1) }, ADMIN_OFF, ['clientWaiting']],
  ['a client waits, but the viewer may not know', { clientWaitingSince: daysAgo(1) }, CLIENT, []],
  ['opened 15 days ago (staff)', { lastOpenedAt: daysAgo(15) }, STAFF_ON, ['notOpened']],
  ['opened 13 days ago', { lastOpenedAt: daysAgo(13) }, STAFF_ON, []],
  ['opened 15 days ago (admin off the plan)', { lastOpenedAt: daysAgo(15) }, ADMIN_OFF, []],
  ['opened 15 days ago (client)', { lastOpenedAt: daysAgo(15) }, CLIENT, []],
  [
    'never opened, joined 20 days ago',
    { lastOpenedAt: null, joinedAt: daysAgo(20) },
    STAFF_ON,
    ['notOpened'],
  ],
  ['never opened, joined 2 days ago', { lastOpenedAt: null, joinedAt: daysAgo(2) }, STAFF_ON, []],
  [
    'creator, never opened, plan 2 days old',
    { lastOpenedAt: null, joinedAt: null, created: daysAgo(2) },
    STAFF_ON,
    [],
  ],
  ['an event soon (client)', { hasUpcomingEvent: true }, CLIENT, ['eventSoon']],
  [
    'everything at once',
    { clientWaitingSince: daysAgo(3), lastOpenedAt: daysAgo(30), hasUpcomingEvent: true },
    STAFF_ON,
    ['clientWaiting', 'notOpened', 'eventSoon'],
  ],
  [
    'closed: nothing, whatever else',
    { closed: true, clientWaitingSince: daysAgo(3), lastOpenedAt: daysAgo(30), hasUpcomingEvent: true },
    STAFF_ON,
    [],
  ],
];

describe('attentionOf', () => {
  it.each(TABLE)('%s', (_label, facts, policies, expected) => {
    expect(attentionOf({ ...BASE, ...facts }, policies, NOW)).toEqual(expected);
  });
});
