import { useEffect, useState, type ReactNode } from 'react';
import { ChatClient } from '@caseroom/sdk';
import type { PublicConfig } from '@caseroom/protocol';
import { apiGet, callFunction } from '../api/http';
import { ChatContext, type ChatStatus } from './ChatContext';

interface ChatUserInfo {
  id: string;
  name: string;
}

/**
 * Connects the signed-in user to the chat for as long as it is mounted (product-spec §4: the chat starts with the
 * session and is destroyed without it). Tokens come from the `chat-getToken` callable, also on reconnects.
 */
export function ChatProvider({ user, children }: { user: ChatUserInfo; children: ReactNode }) {
  const [state, setState] = useState<ChatStatus>({ status: 'starting' });
  const [attempt, setAttempt] = useState(0);
  const { id, name } = user;

  useEffect(() => {
    let cancelled = false;
    let client: ChatClient | undefined;
    void (async () => {
      try {
        const config = await apiGet<PublicConfig>('/api/config');
        if (cancelled) return;
        client = new ChatClient({ apiKey: config.chatApiKey, baseUrl: config.chatBaseUrl });
        await client.connectUser({ id, name }, () => callFunction<string>('chat-getToken'));
        if (!cancelled) setState({ status: 'ready', client, userId: id });
      } catch (err) {
        if (cancelled) return;
        setState({
          status: 'error',
          error: err instanceof Error ? err.message : String(err),
          retry: () => {
            setState({ status: 'starting' });
            setAttempt((n) => n + 1);
          },
        });
      }
    })();
    return () => {
      cancelled = true;
      // Teardown errors are swallowed (product-spec §4, "Chat destroy").
      client?.disconnectUser().catch(() => undefined);
    };
  }, [id, name, attempt]);

  return <ChatContext.Provider value={state}>{children}</ChatContext.Provider>;
}
