import { withSeparators } from '@caseroom/sdk';
import { describe, expect, it } from 'vitest';
import { rowsInDirection } from './listDirection';

const at = (day: number, minute: number) => new Date(2025, 5, day, 9, minute).toISOString();
const rows = withSeparators(
  [
    { id: 'a', created_at: at(17, 0), user_id: 'x' },
    { id: 'b', created_at: at(18, 0), user_id: 'x' },
    { id: 'c', created_at: at(18, 1), user_id: 'y' },
    { id: 'd', created_at: at(18, 2), user_id: 'y' },
  ],
  { lastReadMessageId: 'b', ownUserId: 'me', now: new Date(2025, 5, 18, 12) },
);
const names = (items: typeof rows) =>
  items.map((i) => (i.kind === 'message' ? i.message.id : i.kind === 'date' ? i.label : 'unread'));

describe('list direction (chat-spec §2)', () => {
  it('keeps the SDK order bottom to top (newest last)', () => {
    expect(names(rowsInDirection(rows, 'bottom-to-top'))).toEqual([
      'Yesterday',
      'a',
      'Today',
      'b',
      'unread',
      'c',
      'd',
    ]);
  });

  it('puts the newest first top to bottom, each day under its separator, unread between read and unread', () => {
    expect(names(rowsInDirection(rows, 'top-to-bottom'))).toEqual([
      'Today',
      'd',
      'c',
      'unread',
      'b',
      'Yesterday',
      'a',
    ]);
  });
});
