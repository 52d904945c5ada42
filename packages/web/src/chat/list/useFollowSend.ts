import { useEffect, useRef, useState } from 'react';
import type { ChannelHandle, ChannelSnapshot } from '../sdkTypes';
import { newOwnSend } from './followSend';

/**
 * Counts the viewer's sends in `channel` (main list), for the message list to scroll to its newest message each
 * time. When the list shows an older set (it opened at the unread line), the latest set, where the sent message
 * is, becomes the current one first.
 */
export function useFollowSend(channel: ChannelHandle, state: ChannelSnapshot, viewerId: string): number {
  const seen = useRef(new Set<string>());
  const [sends, setSends] = useState(0);
  const sent = newOwnSend(state.messageSets, viewerId, seen.current);
  const { isLatest } = state;
  useEffect(() => {
    if (!sent) return;
    seen.current.add(sent);
    if (isLatest) setSends((n) => n + 1);
    else
      void channel
        .jumpToLatest()
        .catch(() => undefined)
        .then(() => setSends((n) => n + 1));
  }, [channel, sent, isLatest]);
  return sends;
}
