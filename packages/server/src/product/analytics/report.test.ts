import { describe, expect, it } from 'vitest';
import { reportStart } from './report.js';
import { eventFor } from './recorder.js';

describe('reportStart (Monday 00:00 UTC, whole weeks)', () => {
  it.each([
    ['a Wednesday, 1 week', '2026-11-25T15:00:00Z', 1, '2026-11-23'],
    ['a Monday at midnight, 1 week', '2026-11-23T00:00:00Z', 1, '2026-11-23'],
    ['a Sunday late, 1 week', '2026-11-29T23:59:59Z', 1, '2026-11-23'],
    ['a Wednesday, 8 weeks', '2026-11-25T15:00:00Z', 8, '2026-10-05'],
    ['across a year', '2027-01-01T12:00:00Z', 2, '2026-12-21'],
  ])('%s', (_label, now, weeks, monday) => {
    expect(reportStart(new Date(now), weeks).toISOString()).toBe(`${monday}T00:00:00.000Z`);
  });
});

describe('eventFor', () => {
  const at = new Date('2026-11-24T10:00:00Z');
  it('takes the organization and case plans from the chat, never anything else', () => {
    expect(
      eventFor(
        'chat_opened',
        { cid: 'messaging:a', team: 'org', custom: { caseplans: ['p1', 7, 'p2'] } },
        'u',
        at,
      ),
    ).toEqual({
      name: 'chat_opened',
      organization: 'org',
      caseplans: ['p1', 'p2'],
      user: 'u',
      channel: 'messaging:a',
      at: '2026-11-24T10:00:00.000Z',
    });
  });
  it('records nothing for a chat outside any organization', () => {
    expect(eventFor('chat_message_sent', { cid: 'messaging:a', custom: {} }, 'u', at)).toBeUndefined();
  });
});
