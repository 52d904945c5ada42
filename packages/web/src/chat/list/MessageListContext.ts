import { createContext, useContext } from 'react';
import type { ChatClient } from '@caseroom/sdk';
import type { ChannelHandle, ChatMessage, ComposerHandle } from '../sdkTypes';

/** What a message bubble needs from the list it is in. */
export interface MessageListContextValue {
  client: ChatClient;
  channel: ChannelHandle;
  viewerId: string;
  mode: 'main' | 'thread';
  capabilities: readonly string[];
  /** The composer of this list: quote and edit go there. */
  composer: ComposerHandle;
  focusComposer: () => void;
  openThread: (message: ChatMessage) => void;
  retry: (message: ChatMessage) => void;
  /** Scrolls to a message (loading the page around it when needed) and highlights it: a quote's click. */
  jumpToMessage: (id: string) => void;
  /** The message highlighted after a jump (chat-spec §4: cleared after 1000 ms). */
  highlightedId: string | undefined;
}

export const MessageListContext = createContext<MessageListContextValue | null>(null);

export function useMessageListContext(): MessageListContextValue {
  const value = useContext(MessageListContext);
  if (!value) throw new Error('MessageListContext is missing');
  return value;
}
