import type { ChannelListOptions } from '@caseroom/sdk';
import type { MessageKey } from '../../i18n/t';

/** The channel list's filters (issue 15): the main list, unread chats, pinned chats and the archive. */
export type ListView = 'all' | 'unread' | 'pinned' | 'archived';

export const LIST_VIEWS: readonly ListView[] = ['all', 'unread', 'pinned', 'archived'];

/** Pinned chats first (newest pin first), then by last message: the server's `NULLS LAST` on `pinned_at`. */
const PINNED_FIRST = [
  { field: 'pinned_at', direction: -1 },
  { field: 'last_message_at', direction: -1 },
] as const;

/**
 * The SDK list options of a view. Archived chats stay out of every view but the archive; the unread view asks for
 * chats with unread messages first (`has_unread`), so the pages loaded hold every unread chat before any read one.
 */
export function listOptions(view: ListView, userId: string): ChannelListOptions {
  const members = { $in: [userId] };
  switch (view) {
    case 'all':
      return { filter: { members, archived: false }, sort: [...PINNED_FIRST] };
    case 'unread':
      return {
        filter: { members, archived: false },
        sort: [{ field: 'has_unread', direction: -1 }, ...PINNED_FIRST],
      };
    case 'pinned':
      return { filter: { members, pinned: true }, sort: [{ field: 'pinned_at', direction: -1 }] };
    case 'archived':
      return { filter: { members, archived: true }, sort: [{ field: 'last_message_at', direction: -1 }] };
  }
}

/** The entries a view shows of its list: the unread view only chats with unread messages that are not muted. */
export function shownEntries<T extends { unreadCount: number; muted: boolean }>(
  view: ListView,
  entries: readonly T[],
): readonly T[] {
  return view === 'unread' ? entries.filter((e) => e.unreadCount > 0 && !e.muted) : entries;
}

export const VIEW_LABELS: Record<ListView, MessageKey> = {
  all: 'chat.list.filter.all',
  unread: 'chat.list.filter.unread',
  pinned: 'chat.list.filter.pinned',
  archived: 'chat.list.filter.archived',
};

export const VIEW_EMPTY: Record<ListView, MessageKey> = {
  all: 'chat.channels.empty',
  unread: 'chat.list.empty.unread',
  pinned: 'chat.list.empty.pinned',
  archived: 'chat.list.empty.archived',
};
