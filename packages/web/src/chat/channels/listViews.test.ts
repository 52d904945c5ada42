import { describe, expect, it } from 'vitest';
import { listOptions, shownEntries } from './listViews';

describe('channel list views', () => {
  it('keeps archived chats out of the main and unread views and pins first', () => {
    expect(listOptions('all', 'amy')).toEqual({
      filter: { members: { $in: ['amy'] }, archived: false },
      sort: [
        { field: 'pinned_at', direction: -1 },
        { field: 'last_message_at', direction: -1 },
      ],
    });
    expect(listOptions('unread', 'amy').sort?.[0]).toEqual({ field: 'has_unread', direction: -1 });
    expect(listOptions('archived', 'amy').filter).toEqual({ members: { $in: ['amy'] }, archived: true });
    expect(listOptions('pinned', 'amy').filter).toEqual({ members: { $in: ['amy'] }, pinned: true });
  });

  it('the unread view shows chats with unread messages that are not muted', () => {
    const entries = [
      { cid: 'a', unreadCount: 2, muted: false },
      { cid: 'b', unreadCount: 3, muted: true },
      { cid: 'c', unreadCount: 0, muted: false },
    ];
    expect(shownEntries('unread', entries).map((e) => e.cid)).toEqual(['a']);
    expect(shownEntries('all', entries).map((e) => e.cid)).toEqual(['a', 'b', 'c']);
  });
});
