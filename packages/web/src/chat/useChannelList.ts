import { useEffect, useState } from 'react';
import type { ChatClient } from '@caseroom/sdk';
import { listOptions, type ListView } from './channels/listViews';
import type { ChannelListHandle } from './sdkTypes';

/**
 * A live SDK channel list of the user's channels: narrowed by `caseplanId` when given, else the `view`'s filter and
 * sort (all, unread, pinned, archived: channels/listViews) when given. Created and loaded on mount (a failure shows
 * through `list.state`), disposed on unmount or when the inputs change.
 */
export function useChannelList(
  client: ChatClient,
  userId: string,
  caseplanId?: string,
  view?: ListView,
): ChannelListHandle | null {
  const [list, setList] = useState<ChannelListHandle | null>(null);
  useEffect(() => {
    const created = client.channelList(
      view && !caseplanId
        ? listOptions(view, userId)
        : {
            filter: {
              members: { $in: [userId] },
              ...(caseplanId ? { caseplans: { $in: [caseplanId] } } : {}),
            },
          },
    );
    setList(created);
    created.load().catch(() => undefined);
    return () => created.dispose();
  }, [client, userId, caseplanId, view]);
  return list;
}

/** The app route of a chat channel. */
export function chatPath(channel: { type: string; id: string }): string {
  return `/app/chat/${encodeURIComponent(channel.type)}/${encodeURIComponent(channel.id)}`;
}
