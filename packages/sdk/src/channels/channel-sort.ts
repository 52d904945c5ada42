import type { Channel, ChannelMember } from '@caseroom/protocol';

/** A query-channels sort (chat-spec §7): fields in order, 1 ascending, -1 descending. */
export type ChannelSort = { field: string; direction: 1 | -1 }[];

/** What a sort reads of one channel: its data, the viewer's membership and unread count. */
export interface ChannelSortSubject {
  cid: string;
  channel?: Channel | undefined;
  membership?: ChannelMember | undefined;
  unreadCount: number;
}

type Key = string | number | undefined;

/** The sort fields the server knows (store/channel-filter CHANNEL_SORT), read from held state. */
const KEYS: Readonly<Record<string, (s: ChannelSortSubject) => Key>> = {
  last_message_at: (s) => s.channel?.last_message_at ?? s.channel?.created_at,
  created_at: (s) => s.channel?.created_at,
  updated_at: (s) => s.channel?.updated_at,
  name: (s) => s.channel?.name,
  cid: (s) => s.cid,
  member_count: (s) => s.channel?.member_count,
  pinned_at: (s) => s.membership?.pinned_at ?? undefined,
  archived_at: (s) => s.membership?.archived_at ?? undefined,
  has_unread: (s) => (s.unreadCount > 0 ? 1 : 0),
  unread_count: (s) => s.unreadCount,
};

/**
 * A comparator ordering channels as the server does for `sort` (missing values last in either direction, then
 * cid ascending), or undefined when a field is not one the client can read.
 */
export function channelComparator(
  sort: ChannelSort,
): ((a: ChannelSortSubject, b: ChannelSortSubject) => number) | undefined {
  const keys = sort.map((s) => ({ key: KEYS[s.field], direction: s.direction }));
  if (keys.some((k) => !k.key)) return undefined;
  return (a, b) => {
    for (const { key, direction } of keys) {
      const x = key?.(a);
      const y = key?.(b);
      if (x === y) continue;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      return (x < y ? -1 : 1) * direction;
    }
    return a.cid < b.cid ? -1 : a.cid > b.cid ? 1 : 0;
  };
}
