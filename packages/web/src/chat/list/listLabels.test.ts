// @vitest-environment jsdom
import { formatDateSeparator, readByNames, withSeparators } from '@caseroom/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n/t';
import { dateLabels, typingKey } from './listLabels';

const now = new Date(2025, 5, 18, 12, 0); // Wednesday 18 June 2025, local time
const at = (day: number, hour = 9) => new Date(2025, 5, day, hour, 5).toISOString();

describe('date separators through the SDK with translated labels', () => {
  afterEach(async () => {
    await setLanguage('en').catch(() => undefined);
  });

  it('uses the English words by default', () => {
    const labels = dateLabels();
    expect(formatDateSeparator(at(18), now, labels)).toBe('Today');
    expect(formatDateSeparator(at(17), now, labels)).toBe('Yesterday');
    expect(formatDateSeparator(at(14), now, labels)).toBe('Last Saturday');
    expect(formatDateSeparator(at(2), now, labels)).toBe('06/02/2025');
  });

  it('speaks Norwegian, weekday names included, after a language switch', async () => {
    await setLanguage('nb');
    const labels = dateLabels();
    expect(formatDateSeparator(at(18), now, labels)).toBe('I dag');
    expect(formatDateSeparator(at(17), now, labels)).toBe('I går');
    expect(formatDateSeparator(at(14), now, labels)).toBe('Forrige lørdag');
    const items = withSeparators(
      [
        { id: '1', created_at: at(17), user_id: 'a' },
        { id: '2', created_at: at(18), user_id: 'b' },
      ],
      { now, labels, lastReadMessageId: '1', ownUserId: 'me' },
    );
    expect(items.map((i) => (i.kind === 'date' ? i.label : i.kind))).toEqual([
      'I går',
      'message',
      'I dag',
      'unread',
      'message',
    ]);
  });
});

describe('read-by and typing wording', () => {
  it('names at most 5 readers, then +N', () => {
    const users = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((name) => ({ id: name, name }));
    expect(readByNames(users)).toEqual({ names: ['A', 'B', 'C', 'D', 'E'], rest: 2 });
  });

  it('picks singular or plural wording', () => {
    expect([0, 1, 2, 5].map(typingKey)).toEqual(['none', 'one', 'two', 'many']);
  });
});
