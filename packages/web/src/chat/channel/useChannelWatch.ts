import { useEffect, useMemo, useRef, useState } from 'react';
import { ChatApiError, type ChatClient } from '@caseroom/sdk';
import type { ChannelHandle, ChannelSnapshot } from '../sdkTypes';
import { reportChatOpened } from '../../analytics/chatOpened';
import { takeEarlyWatch } from '../earlyWatch';
import { useStore } from '../useStore';

/**
 * Watches a channel while mounted and makes it the active one (the SDK re-watches it after a reconnect and keeps
 * it marked read); answers its live state, a watch error, whether the channel is not there for the viewer (it does
 * not exist — opening it creates nothing — or they are not a member: "Chat not found"), and the viewer's last read
 * message as it was when the channel opened (the unread separator stays there while the channel is open).
 */
export function useChannelWatch(client: ChatClient, type: string, id: string, viewerId: string) {
  const channel = useMemo(() => client.channel(type, id), [client, type, id]);
  const [watchError, setWatchError] = useState<string | null>(null);
  const [notFound, setNotFound] = useState(false);
  useEffect(() => {
    client.setActiveChannel(channel);
    // A chat counts as opened (analytics) once the viewer may see it: after the watch answered.
    (takeEarlyWatch(channel) ?? channel.watch()).then(
      () => {
        if (channel.cid) reportChatOpened(channel.cid);
      },
      (err: unknown) => {
        setWatchError(err instanceof Error ? err.message : String(err));
        setNotFound(isNotFound(err));
      },
    );
    return () => {
      client.threads.setActive(undefined);
      if (client.activeChannel.getSnapshot() === channel) client.setActiveChannel(undefined);
    };
  }, [client, channel]);
  const state = useStore(channel.state);
  const atOpen = useReadAtOpen(state, viewerId);
  const opening = useOpenAtUnread(channel, atOpen);
  return {
    channel,
    state,
    watchError,
    notFound,
    lastReadAtOpen: atOpen.id,
    unreadAtOpen: atOpen.unread,
    opening,
  };
}

/** A channel the viewer cannot have: missing (404, code 16) or not theirs / not theirs to create (403, code 17). */
function isNotFound(err: unknown): boolean {
  return err instanceof ChatApiError && (err.status === 404 || err.status === 403);
}

/**
 * The viewer's read state when the channel opened: the last read message and how many were unread, from the first
 * render with channel data (selecting the channel marks it read right after).
 */
function useReadAtOpen(
  state: ChannelSnapshot,
  viewerId: string,
): { id?: string | undefined; unread: number } {
  const captured = useRef<{ done: boolean; id?: string | undefined; unread: number }>({
    done: false,
    unread: 0,
  });
  if (!captured.current.done && state.channel && !state.loading) {
    const read = state.read[viewerId];
    // The larger: a list's answer may predate messages counted since; a local read may have zeroed the count.
    const unread = Math.max(read?.unread_messages ?? 0, state.unreadCount);
    captured.current = {
      done: true,
      id: unread > 0 ? read?.last_read_message_id : undefined,
      unread: unread > 0 ? unread : 0,
    };
  }
  return captured.current;
}

/**
 * When the channel opened with unread messages, the list waits for the channel's watch (its answer makes the newest
 * page current, whatever was held before) and then, when the last read message is not in that page (more unread
 * than a page), for the page around it (issue 15: the chat opens at the first unread). True while that runs.
 */
function useOpenAtUnread(channel: ChannelHandle, atOpen: { id?: string | undefined }): boolean {
  const lastRead = atOpen.id;
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!lastRead) return;
    let live = true;
    channel
      .watch()
      .then(() => {
        const held = channel.state.getSnapshot().messages.some((m) => m.id === lastRead);
        return held ? undefined : channel.jumpToMessage(lastRead);
      })
      .catch(() => undefined)
      .finally(() => {
        if (live) setDone(true);
      });
    return () => {
      live = false;
    };
  }, [channel, lastRead]);
  return Boolean(lastRead) && !done;
}

/** Reads the newest messages while the reader is at the bottom of the latest set and the page is visible. */
export function useMarkRead(channel: ChannelHandle, state: ChannelSnapshot, atBottom: boolean): void {
  const newest = state.messages.at(-1)?.id;
  useEffect(() => {
    if (!newest || !state.channel || !atBottom || !state.isLatest) return;
    if (document.visibilityState === 'visible') channel.markRead();
  }, [channel, newest, state.channel, atBottom, state.isLatest]);
}
