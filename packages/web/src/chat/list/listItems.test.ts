import { describe, expect, it } from 'vitest';
import { dateSeparatorLabel, messageTime } from './dates';
import { listItems, readByNames, typingKey } from './listItems';

const now = new Date(2025, 5, 18, 12, 0); // Wednesday 18 June 2025, local time
const at = (day: number, hour = 9, minute = 5) => new Date(2025, 5, day, hour, minute).toISOString();

describe('date separators (chat-spec §9)', () => {
  it('says Today, Yesterday, Last <weekday>, else MM/DD/YYYY', () => {
    expect(dateSeparatorLabel(at(18), now)).toBe('Today');
    expect(dateSeparatorLabel(at(17), now)).toBe('Yesterday');
    expect(dateSeparatorLabel(at(14), now)).toBe('Last Saturday');
    expect(dateSeparatorLabel(at(2), now)).toBe('06/02/2025');
    expect(dateSeparatorLabel(at(19), now)).toBe('Tomorrow');
    expect(dateSeparatorLabel(at(21), now)).toBe('Saturday');
  });

  it('formats times as h:mm A', () => {
    expect(messageTime(at(18, 9, 5))).toBe('9:05 AM');
    expect(messageTime(at(18, 21, 30))).toBe('9:30 PM');
  });
});

describe('listItems', () => {
  const m = (id: string, day: number, user: string) => ({ id, created_at: at(day), user_id: user });

  it('puts a date separator before each day and the unread one after the last read', () => {
    const items = listItems([m('1', 17, 'a'), m('2', 18, 'me'), m('3', 18, 'b'), m('4', 18, 'a')], {
      lastReadMessageId: '1',
      viewerId: 'me',
      now,
    });
    expect(
      items.map((i) => (i.kind === 'message' ? i.message.id : i.kind === 'date' ? i.label : 'unread')),
    ).toEqual(['Yesterday', '1', 'Today', '2', 'unread', '3', '4']);
    expect(items.find((i) => i.kind === 'unread')).toMatchObject({ count: 2 });
  });

  it('has no unread separator without a last read message or when all after it are own', () => {
    expect(listItems([m('1', 18, 'a')], { viewerId: 'me', now }).some((i) => i.kind === 'unread')).toBe(
      false,
    );
    const own = listItems([m('1', 18, 'a'), m('2', 18, 'me')], {
      lastReadMessageId: '1',
      viewerId: 'me',
      now,
    });
    expect(own.some((i) => i.kind === 'unread')).toBe(false);
  });
});

describe('read-by and typing wording', () => {
  it('names at most 5 readers, then +N', () => {
    expect(readByNames(['A', 'B'])).toEqual({ names: 'A, B', rest: 0 });
    expect(readByNames(['A', 'B', 'C', 'D', 'E', 'F', 'G'])).toEqual({ names: 'A, B, C, D, E', rest: 2 });
  });

  it('picks singular or plural wording', () => {
    expect([0, 1, 2, 5].map(typingKey)).toEqual(['none', 'one', 'two', 'many']);
  });
});
