import { createContext, useContext } from 'react';
import type { ChatClient } from '@caseroom/sdk';

export type ChatStatus =
  | { status: 'starting' }
  | { status: 'ready'; client: ChatClient; userId: string }
  | { status: 'error'; error: string; retry: () => void };

export const ChatContext = createContext<ChatStatus>({ status: 'starting' });

/** The chat client of the signed-in user, once it is connected. */
export function useChat(): ChatStatus {
  return useContext(ChatContext);
}
