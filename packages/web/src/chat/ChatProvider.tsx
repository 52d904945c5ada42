import { useEffect, useState, type ReactNode } from 'react';
import { ChatClient } from '@caseroom/sdk';
import type { PublicConfig } from '@caseroom/protocol';
import { apiGet, callFunction, sessionToken } from '../api/http';
import { ChatContext, type ChatStatus } from './ChatContext';

interface ChatUserInfo {
  id: string;
  name: string;
}

/**
 * `/api/config` is public and the same for every user, so it is asked for as soon as the app shell's code loads,
 * while the session is still being checked, instead of after it; the first connection uses that answer, later
 * ones (a retry, another user) ask again.
 */
let earlyConfig: Promise<PublicConfig> | undefined = apiGet<PublicConfig>('/api/config');
// A failure is reported by the connection that uses it; unused, it is not an unhandled rejection.
earlyConfig.catch(() => undefined);

function publicConfig(): Promise<PublicConfig> {
  const early = earlyConfig;
  earlyConfig = undefined;
  return early ?? apiGet<PublicConfig>('/api/config');
}

/**
 * The same for the chat token when the browser holds a session token: it is asked for beside the session check
 * (a 401 there changes nothing while the session is loading) and handed to the first connection if that starts
 * within a short while; if it failed, that connection asks again, as it would have.
 */
const EARLY_TOKEN_MS = 30_000;
/** The early chat token and the session it was asked for with: another session (a new sign-in) never uses it. */
let early: { session: string; token: Promise<string> } | undefined;
const earlySession = sessionToken.get();
if (earlySession) {
  early = { session: earlySession, token: callFunction<string>('chat-getToken') };
  early.token.catch(() => undefined);
  setTimeout(() => (early = undefined), EARLY_TOKEN_MS);
}

function firstChatToken(): Promise<string> {
  const taken = early;
  early = undefined;
  return taken && taken.session === sessionToken.get()
    ? taken.token.catch(() => callFunction<string>('chat-getToken'))
    : callFunction<string>('chat-getToken');
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
        const config = await publicConfig();
        if (cancelled) return;
        client = new ChatClient({ apiKey: config.chatApiKey, baseUrl: config.chatBaseUrl });
        let first = true;
        await client.connectUser({ id, name }, () => {
          if (!first) return callFunction<string>('chat-getToken');
          first = false;
          return firstChatToken();
        });
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
