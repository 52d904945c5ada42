import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { ChatClient } from '@caseroom/sdk';
import { useChat } from '../chat/ChatContext';
import { chatPushDevices } from './chatDevices';
import { push as defaultPush, type Push } from './pushStore';
import { PushToast } from './PushToast';

/** The cid of the chat's active channel (open in the popup or the messenger), if any. */
function useActiveCid(client: ChatClient | undefined): string | undefined {
  const subscribe = useCallback(
    (listener: () => void) => client?.activeChannel.subscribe(listener) ?? (() => undefined),
    [client],
  );
  const active = useSyncExternalStore(subscribe, () => client?.activeChannel.getSnapshot());
  return active?.cid;
}

/**
 * Push for the signed-in user, mounted inside the chat (product-spec §4): starts push on sign-in, adds the
 * push device to the chat once it is connected and removes it when the chat is torn down, and shows push
 * toasts.
 */
export function PushHost({ uid, push = defaultPush }: { uid: string; push?: Push }) {
  const chat = useChat();
  const client = chat.status === 'ready' ? chat.client : undefined;
  const chatUser = chat.status === 'ready' ? chat.userId : undefined;

  useEffect(() => push.start(uid), [push, uid]);

  useEffect(() => {
    if (!client || !chatUser) return;
    void push.attachChat(chatPushDevices(client));
    // Chat teardown removes the push device; a failure is logged only.
    return () => void push.detachChat();
  }, [push, client, chatUser]);

  return <PushToast openCid={useActiveCid(client)} />;
}
