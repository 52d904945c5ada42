import { useEffect, useState, type ReactNode } from 'react';
import { ChatClient } from '@caseroom/sdk';
import type { MeResponse, PublicConfig } from '@caseroom/protocol';
import { apiGet, callFunction, sessionToken } from '../api/http';
import { session } from '../session/session';
import { ChatContext, type ChatStatus } from './ChatContext';
import { setEarlyWatch } from './earlyWatch';
import { useUnreadTitle } from './useUnreadTitle';

interface ChatUserInfo {
  id: string;
  name: string;
}

/** The chat user of a signed-in session: its uid, named by its display name or else its e-mail address. */
export function chatUserOf(me: MeResponse): ChatUserInfo {
  return { id: me.uid, name: me.user.name?.trim() || me.email };
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
let earlyToken: { session: string; token: Promise<string> } | undefined;
const earlySession = sessionToken.get();
if (earlySession) {
  earlyToken = { session: earlySession, token: callFunction<string>('chat-getToken') };
  earlyToken.token.catch(() => undefined);
  setTimeout(() => (earlyToken = undefined), EARLY_TOKEN_MS);
}

function firstChatToken(): Promise<string> {
  const taken = earlyToken;
  earlyToken = undefined;
  return taken && taken.session === sessionToken.get()
    ? taken.token.catch(() => callFunction<string>('chat-getToken'))
    : callFunction<string>('chat-getToken');
}

/**
 * A new client for `user`, connected with the tokens of `chat-getToken` (the early one first). `created` hears
 * of the client as soon as it exists, so that it can be closed while it connects; answering `false` there stops
 * before connecting.
 */
async function connectChat(
  user: ChatUserInfo,
  created: (client: ChatClient) => boolean,
): Promise<ChatClient> {
  const config = await publicConfig();
  // The channel list shows the unread total of the chats not muted: kept current by the SDK.
  const client = new ChatClient({
    apiKey: config.chatApiKey,
    baseUrl: config.chatBaseUrl,
  });
  if (!created(client)) return client;
  let first = true;
  await client.connectUser(user, () => {
    if (!first) return callFunction<string>('chat-getToken');
    first = false;
    return firstChatToken();
  });
  return client;
}

/**
 * The first connection starts as soon as the session knows its user (this module loads with the app shell), not
 * once the app shell has rendered, and asks for the channel of the address right away (its view asks for the
 * same watch, which the SDK shares while it is under way). The first ChatProvider for that same user takes it
 * over; one for someone else, or none within a short while, and it is closed.
 */
interface EarlyChat {
  user: ChatUserInfo;
  client: ChatClient | undefined;
  closed: boolean;
  connected: Promise<ChatClient>;
  timer: ReturnType<typeof setTimeout>;
}
let earlyChat: EarlyChat | undefined;

/** Closes an early connection; one whose client is not made yet stops before connecting. */
function closeEarly(chat: EarlyChat): void {
  clearTimeout(chat.timer);
  chat.closed = true;
  chat.client?.disconnectUser().catch(() => undefined);
}

function startEarlyChat(): void {
  const state = session.getSnapshot();
  if (earlyChat || state.status !== 'signed-in') return;
  const user = chatUserOf(state.me);
  const chat: EarlyChat = {
    user,
    client: undefined,
    closed: false,
    connected: connectChat(user, (client) => {
      chat.client = client;
      return !chat.closed;
    }).then((client) => {
      if (chat.closed) throw new Error('closed');
      const open = /^\/app\/chat\/([^/]+)\/([^/]+)\/?$/.exec(location.pathname);
      if (open?.[1] && open[2]) {
        const channel = client.channel(decodeURIComponent(open[1]), decodeURIComponent(open[2]));
        const watched = channel.watch();
        // Its view hears of a failure (takeEarlyWatch); unused, it is not an unhandled rejection.
        watched.catch(() => undefined);
        setEarlyWatch(channel, watched);
      }
      return client;
    }),
    timer: setTimeout(() => {
      if (earlyChat !== chat) return;
      earlyChat = undefined;
      closeEarly(chat);
    }, EARLY_TOKEN_MS),
  };
  // A failure is reported by the ChatProvider that takes it; unused, it is not an unhandled rejection.
  chat.connected.catch(() => undefined);
  earlyChat = chat;
}
const stopWatchingSession = session.subscribe(startEarlyChat);
startEarlyChat();

/**
 * The early connection, when it is there for `user`. Only the first ChatProvider finds one: it stops the session
 * watch, so none starts after it.
 */
function takeEarlyChat(user: ChatUserInfo): EarlyChat | undefined {
  stopWatchingSession();
  const chat = earlyChat;
  earlyChat = undefined;
  if (!chat) return undefined;
  if (chat.user.id === user.id && chat.user.name === user.name) {
    clearTimeout(chat.timer);
    return chat;
  }
  closeEarly(chat);
  return undefined;
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
    let early: EarlyChat | undefined;
    void (async () => {
      try {
        early = takeEarlyChat({ id, name });
        if (early) {
          client = await early.connected;
        } else {
          client = await connectChat({ id, name }, (created) => {
            if (cancelled) return false;
            client = created;
            return true;
          });
        }
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
      // Teardown errors are swallowed (product-spec §4, "Chat destroy"); a taken early connection is closed the
      // same way, or stops before connecting when its client is not made yet.
      if (early) closeEarly(early);
      else client?.disconnectUser().catch(() => undefined);
    };
  }, [id, name, attempt]);

  return (
    <ChatContext.Provider value={state}>
      {state.status === 'ready' ? <UnreadTitle client={state.client} /> : null}
      {children}
    </ChatContext.Provider>
  );
}

/** The unread total in the tab title while the chat is connected. */
function UnreadTitle({ client }: { client: ChatClient }) {
  useUnreadTitle(client);
  return null;
}
