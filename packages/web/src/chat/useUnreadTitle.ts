import { useEffect } from 'react';
import type { ChatClient } from '@caseroom/sdk';
import { setUnreadTitleCount } from '../ui/documentTitle';
import { useStore } from './useStore';

/** Shows the user's unread total (the SDK's `client.unread`) in front of the tab title while mounted. */
export function useUnreadTitle(client: ChatClient): void {
  const { total_unread_count: unread } = useStore(client.unread);
  useEffect(() => {
    setUnreadTitleCount(unread);
  }, [unread]);
  useEffect(() => () => setUnreadTitleCount(0), []);
}
