import type { ChatEvent } from '@caseroom/protocol';
import type { FakeChannelRecord } from './fake-data.js';
import { isMutedBy } from './fake-membership.js';

/** What the unread routes need from the fake server. */
export interface FakeUnreadHost {
  readonly channels: Map<string, FakeChannelRecord>;
  emitToUser(userId: string, event: ChatEvent): void;
  now(): string;
}

/** `GET /unread`: the user's counts per channel with unread messages, muted channels left out. */
export function unreadCounts(host: FakeUnreadHost, userId: string) {
  const now = host.now();
  const channels: { channel_id: string; unread_count: number; last_read: string }[] = [];
  const byType = new Map<string, { channel_count: number; unread_count: number }>();
  for (const [cid, record] of host.channels) {
    if (!record.members.includes(userId) || isMutedBy(record, userId, now)) continue;
    const read = record.read.get(userId);
    if (!read || read.unread_messages <= 0) continue;
    channels.push({ channel_id: cid, unread_count: read.unread_messages, last_read: read.last_read });
    const t = byType.get(record.type) ?? { channel_count: 0, unread_count: 0 };
    byType.set(record.type, {
      channel_count: t.channel_count + 1,
      unread_count: t.unread_count + read.unread_messages,
    });
  }
  return {
    total_unread_count: channels.reduce((n, c) => n + c.unread_count, 0),
    unread_channels: channels.length,
    total_unread_threads_count: 0,
    channels,
    channel_type: [...byType].map(([channel_type, t]) => ({ channel_type, ...t })),
    threads: [],
  };
}

/** The user's totals, as `health.check` and their own notifications carry them. */
export function unreadTotals(host: FakeUnreadHost, userId: string) {
  const { total_unread_count, unread_channels } = unreadCounts(host, userId);
  return { total_unread_count, unread_channels };
}

/** `notification.mark_read` with the new totals to the reader's connections, as the server sends after a read. */
export function notifyMarkRead(
  host: FakeUnreadHost,
  userId: string,
  cid: string,
  user: { id: string },
): void {
  const [type = '', id = ''] = cid.split(':');
  host.emitToUser(userId, {
    type: 'notification.mark_read',
    cid,
    channel_id: id,
    channel_type: type,
    user,
    ...unreadTotals(host, userId),
    created_at: host.now(),
  } as ChatEvent);
}
