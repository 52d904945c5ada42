import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useChat } from '../../chat/ChatContext';
import type { ChannelListEntry, ChannelListHandle } from '../../chat/sdkTypes';
import { chatPath } from '../../chat/useChannelList';

const NONE: readonly ChannelListEntry[] = [];
const noop = () => undefined;

/**
 * For plans where a client waits: the viewer's most recently active chat with a client on each, as an app path,
 * from one channel query for all of them (not one per plan). Plans without such a chat (an admin who is not in
 * it, the chat still connecting) are missing; the home then links to the plan itself.
 */
export function useWaitingChats(planIds: readonly string[]): ReadonlyMap<string, string> {
  const chat = useChat();
  const key = planIds.join('\n');
  const [list, setList] = useState<ChannelListHandle | null>(null);
  useEffect(() => {
    if (chat.status !== 'ready' || key === '') {
      setList(null);
      return undefined;
    }
    const created = chat.client.channelList({
      filter: { members: { $in: [chat.userId] }, caseplans: { $in: key.split('\n') }, hasClient: true },
      limit: 30,
      messageLimit: 1,
    });
    setList(created);
    created.load().catch(() => undefined);
    return () => created.dispose();
  }, [chat, key]);
  const subscribe = useCallback((listener: () => void) => list?.state.subscribe(listener) ?? noop, [list]);
  const channels = useSyncExternalStore(subscribe, () => list?.state.getSnapshot().channels ?? NONE);
  return useMemo(() => {
    const paths = new Map<string, string>();
    // Newest first (the list's order): the first chat seen for a plan is its latest one.
    for (const { channel } of channels) {
      const plans = (channel as { caseplans?: unknown }).caseplans;
      if (!Array.isArray(plans)) continue;
      for (const plan of plans) {
        if (typeof plan === 'string' && !paths.has(plan)) paths.set(plan, chatPath(channel));
      }
    }
    return paths;
  }, [channels]);
}
